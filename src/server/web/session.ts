// Server-side sessions in the app state (app.db, or the fleet's PostgreSQL, where any node reads
// a session another made: test/server/web/session.test.ts). The cookie carries 256 random bits;
// the table keeps only their SHA-256, so reading the database does not let anyone log in.
// One-time flash messages (a new API token) are sealed with a key derived from the cookie value,
// so they are unreadable from the database too.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../../storage/app/schema.ts';
import { isRandomToken, randomToken } from './random.ts';

export const SESSION_COOKIE = 'cnpj_sessao';
/** Absolute lifetime: a working day and a bit; the user logs in again after it. */
export const SESSION_TTL_MS = 12 * 3600_000;

export interface Session {
  idHash: string;
  userId: number;
  csrfSecret: string;
  /** Derived from the cookie value; never stored. */
  flashKey: Buffer;
  sealedFlash: string | null;
}

const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');
const flashKeyOf = (cookie: string): Buffer =>
  crypto.createHmac('sha256', cookie).update('cnpj-api web flash v1').digest();

/** Stores a new session and returns the cookie value (the only copy of the session id). */
export async function createSession(db: Kysely<AppDatabase>, userId: number, now: Date): Promise<string> {
  const cookie = randomToken();
  await db
    .insertInto('sessions')
    .values({
      id_hash: sha256(cookie),
      user_id: userId,
      csrf_secret: randomToken(),
      flash: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    })
    .execute();
  // Housekeeping on the rare path (a login), never on every page view.
  await db.deleteFrom('sessions').where('expires_at', '<', now.toISOString()).execute();
  return cookie;
}

export async function loadSession(
  db: Kysely<AppDatabase>,
  cookie: string | undefined,
  now: Date,
): Promise<Session | null> {
  if (!isRandomToken(cookie)) return null;
  const row = await db
    .selectFrom('sessions')
    .select(['id_hash', 'user_id', 'csrf_secret', 'flash', 'expires_at'])
    .where('id_hash', '=', sha256(cookie))
    .executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return null;
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    csrfSecret: row.csrf_secret,
    flashKey: flashKeyOf(cookie),
    sealedFlash: row.flash,
  };
}

export async function destroySession(db: Kysely<AppDatabase>, session: Session): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', session.idHash).execute();
}

/** What a page may leave for the next page view, shown once. */
export type Flash =
  | { kind: 'token'; token: string; name: string }
  | { kind: 'webhook'; secret: string; url: string }
  | { kind: 'notice'; text: string }
  | { kind: 'error'; text: string };

function seal(key: Buffer, value: Flash): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function unseal(key: Buffer, sealed: string): Flash | null {
  try {
    const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv!);
    decipher.setAuthTag(tag!);
    return JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')) as Flash;
  } catch {
    return null;
  }
}

export async function setFlash(db: Kysely<AppDatabase>, session: Session, flash: Flash): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ flash: seal(session.flashKey, flash) })
    .where('id_hash', '=', session.idHash)
    .execute();
}

/**
 * Takes the flash and clears it in one statement guarded by its value, so two concurrent page
 * loads cannot both show a token: only the one whose UPDATE changed the row gets it.
 */
export async function takeFlash(db: Kysely<AppDatabase>, session: Session): Promise<Flash | null> {
  const sealed = session.sealedFlash;
  if (!sealed) return null;
  const result = await db
    .updateTable('sessions')
    .set({ flash: null })
    .where('id_hash', '=', session.idHash)
    .where('flash', '=', sealed)
    .executeTakeFirst();
  session.sealedFlash = null;
  if (Number(result.numUpdatedRows) !== 1) return null;
  return unseal(session.flashKey, sealed);
}
