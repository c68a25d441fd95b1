// Plans live in the app state (seeded by migration 0002 / PostgreSQL's 0001) and are edited by the operator.
import { sql } from 'kysely';
import { writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { AccountsError, rethrowUnique } from './errors.ts';
import { nocase, nocaseValue } from '../../storage/app/dialect.ts';

export interface Plan {
  name: string;
  monthlyQuota: number;
  apiIncluded: boolean;
  /** How many CNPJs an account on this plan may watch (docs/watchlists.md). */
  watchlistLimit: number;
  sortOrder: number;
}

interface PlanRow {
  name: string;
  monthly_quota: number;
  api_included: 0 | 1;
  watchlist_limit: number;
  sort_order: number;
}

const fromRow = (r: PlanRow): Plan => ({
  name: r.name,
  monthlyQuota: r.monthly_quota,
  apiIncluded: r.api_included === 1,
  watchlistLimit: r.watchlist_limit,
  sortOrder: r.sort_order,
});

export async function listPlans(store: AppStore): Promise<Plan[]> {
  const rows = await store.db
    .selectFrom('plans')
    .selectAll()
    .orderBy('sort_order')
    .orderBy(nocase(store, 'name'))
    .execute();
  return rows.map(fromRow);
}

/** Case-insensitive; returns the plan with its canonical spelling, or null. */
export async function getPlan(store: AppStore, name: string): Promise<Plan | null> {
  const r = await store.db
    .selectFrom('plans')
    .selectAll()
    .where(nocase(store, 'name'), '=', nocaseValue(store, String(name).trim()))
    .executeTakeFirst();
  return r ? fromRow(r) : null;
}

export async function requirePlan(store: AppStore, name: string): Promise<Plan> {
  const p = await getPlan(store, name);
  if (!p) {
    const known = (await listPlans(store)).map((x) => x.name).join(', ');
    throw new AccountsError('not_found', `Plan "${name}" does not exist (plans: ${known}).`);
  }
  return p;
}

export interface PlanChanges {
  monthlyQuota?: number;
  apiIncluded?: boolean;
  watchlistLimit?: number;
}

/**
 * Changes a plan's quota, API flag and/or watchlist limit. An unknown name creates a new plan, which then needs
 * a quota (API included unless said otherwise). Takes effect on the next request.
 */
export async function setPlan(store: AppStore, name: string, changes: PlanChanges): Promise<Plan> {
  const q = changes.monthlyQuota;
  if (q !== undefined && !(Number.isSafeInteger(q) && q >= 0)) {
    throw new AccountsError('invalid_input', 'The monthly quota must be an integer of 0 or more.');
  }
  const w = changes.watchlistLimit;
  if (w !== undefined && !(Number.isSafeInteger(w) && w >= 0)) {
    throw new AccountsError('invalid_input', 'The watchlist limit must be an integer of 0 or more.');
  }
  const trimmed = String(name ?? '').trim();
  try {
    return await writeTransaction(store, async (tx): Promise<Plan> => {
      const existing = await getPlan(tx, trimmed);
      if (!existing) {
        if (!trimmed || trimmed.length > 60)
          throw new AccountsError('invalid_input', 'The plan name must have 1 to 60 characters.');
        if (q === undefined)
          throw new AccountsError(
            'invalid_input',
            `Plan "${trimmed}" does not exist; to create it, give its monthly quota.`,
          );
        const { next } = await tx.db
          .selectFrom('plans')
          .select(sql<number>`coalesce(max(sort_order), 0) + 10`.as('next'))
          .executeTakeFirstOrThrow();
        await tx.db
          .insertInto('plans')
          .values({
            name: trimmed,
            monthly_quota: q,
            api_included: changes.apiIncluded === false ? 0 : 1,
            sort_order: next,
            ...(w !== undefined ? { watchlist_limit: w } : {}),
          })
          .execute();
      } else {
        const set: { monthly_quota?: number; api_included?: 0 | 1; watchlist_limit?: number } = {};
        if (q !== undefined) set.monthly_quota = q;
        if (changes.apiIncluded !== undefined) set.api_included = changes.apiIncluded ? 1 : 0;
        // Lowering it below what accounts already watch removes nothing: they can only remove until under it.
        if (w !== undefined) set.watchlist_limit = w;
        if (Object.keys(set).length)
          await tx.db.updateTable('plans').set(set).where('name', '=', existing.name).execute();
      }
      return (await getPlan(tx, trimmed))!;
    });
  } catch (err) {
    // Two nodes creating the same new plan at once: the second meets the unique name.
    rethrowUnique(err, `Plan "${trimmed}" was just created elsewhere; run the command again to change it.`);
  }
}
