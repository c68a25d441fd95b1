// Who is looking at a page: the session from the cookie, its user and account, and what they may do.
import { getAccount, type Account } from '../../domain/accounts/accounts.ts';
import { canManageTokens, getUser, type User } from '../../domain/accounts/users.ts';
import type { WebContext } from './context.ts';
import { parseCookies, type Req } from './http.ts';
import type { HeaderUser } from './layout.ts';
import { loadSession, SESSION_COOKIE, type Session } from './session.ts';

export interface Viewer {
  session: Session;
  user: User;
  account: Account;
  /** Billing administrator of an active account. */
  canManage: boolean;
}

export const ROLE_LABELS: Record<User['role'], string> = {
  billing_admin: 'Administrador de cobrança',
  member: 'Membro',
};

export async function currentViewer(ctx: WebContext, req: Req): Promise<Viewer | null> {
  const session = await loadSession(ctx.store.db, parseCookies(req).get(SESSION_COOKIE), ctx.now());
  if (!session) return null;
  const user = await getUser(ctx.store, session.userId);
  const account = user ? await getAccount(ctx.store, user.accountId) : null;
  if (!user || !account) return null;
  return { session, user, account, canManage: canManageTokens(user) && account.status === 'active' };
}

export function headerUser(v: Viewer): HeaderUser {
  return {
    email: v.user.email,
    roleLabel: ROLE_LABELS[v.user.role],
    accountName: v.account.name,
    csrfToken: v.session.csrfSecret,
  };
}
