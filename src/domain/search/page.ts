// One page of a company search: the CNPJs after `after`, in CNPJ order.
//
// Every part holds establishments from the whole CNPJ range, in two rowid ranges (numeric and
// alphanumeric CNPJs, rowid.ts), so a page is the merge by CNPJ of parts × 2 sorted streams, each
// an FTS5 query read lazily (an open statement, rows pulled as the merge needs them).
//
// Keyset paging: the cursor is the last CNPJ, the next page starts at `rowid > cursor`, which
// FTS5 reaches through each doclist's index, as fast as a first page. The bound must be bound as
// an INTEGER (a BigInt here): FTS5 ignores a REAL one (a JS number) and SQLite then steps through
// every match before it (a cost per document that adds up deep into "situação ativa" at full
// size: docs/benchmarks.md).
//
// A query may be several variants (checks.ts: a range's whole and cut terms, each with its own
// row check); each has its streams, all merged. A page whose checks reject SCAN_BUDGET candidates
// stops early, shorter, with a cursor to go on (each check is a fetch of the row by CNPJ).
// A name prefix checked on the rows (prefix.ts) goes on from where its checks stop in its index
// form when it has one (checks.ts indexOnly: the OR of its words, or `word*`), which gives the
// same rows (so the two halves of the page join exactly) at a cost that does not follow its
// rarity among the candidates: once the checks took as long as that form should (its clause's
// `switchMs`). Paying for the checks up to the price of the alternative, then switching, costs
// at most about twice the better of the two, whether the rows are cached (cheap checks: a
// common prefix fills its page first, a rare one ends a short page at SCAN_BUDGET rejections as
// any check does) or not (a disk read each on a full month: the index form after a few dozen;
// docs/benchmarks.md).
import { matchSql, type Plan } from './plan.ts';
import { ALNUM_BASE, boundsAfter, cnpjOfRowid } from './rowid.ts';
import type { Statements } from './index-tables.ts';
import { checkedPrefixes, indexOnly, variantsOf } from './checks.ts';

export const SCAN_BUDGET = 2_000;
/**
 * How long a page may examine candidates, in ms: then it ends, shorter, with the cursor of the
 * last candidate examined (issue #46: no request holds a worker much past ~250 ms). Looked at
 * after each candidate, so at least one is always examined and paging always moves on.
 */
export const PAGE_MS = 200;

/**
 * When a scan stops early: after `rejections`, once it ran `ms` (looked at every 16 rejections;
 * for a checked prefix, to hand over to its index form), or at `until` (performance.now(): the
 * page's whole budget, looked at after every candidate).
 */
interface Budget {
  rejections: number;
  ms?: number;
  until: number;
}

export interface Page {
  cnpjs: string[];
  /** The cursor of the next page (the last CNPJ examined), null when there is none. */
  next: string | null;
}

/** The CNPJs of one part and rowid range, in order, read lazily. */
function* stream(
  st: Statements,
  part: string,
  alnum: boolean,
  match: string,
  after: string | null,
  variant: number,
): Generator<string> {
  const b = boundsAfter(after);
  const range = alnum ? '' : ` AND rowid < ${ALNUM_BASE}`;
  // One statement per variant: the variants' streams of a part are open at the same time.
  const sql = `SELECT rowid FROM ${part}.est_fts WHERE est_fts MATCH ? AND rowid > ?${range} ORDER BY rowid /* ${variant} */`;
  const stmt = st.get(sql).pluck(true).safeIntegers(alnum);
  for (const rowid of stmt.iterate(match, alnum ? b.alnum : BigInt(b.numeric)) as Iterable<number | bigint>)
    yield cnpjOfRowid(rowid);
}

export function searchPage(st: Statements, plan: Plan, limit: number, after: string | null, pageMs = PAGE_MS): Page {
  if (plan.empty) return { cnpjs: [], next: null };
  const until = performance.now() + pageMs;
  // A checked prefix has an index form exactly when its clause says what that form costs.
  const alternative = checkedPrefixes(plan).length ? indexOnly(plan) : null;
  const switchMs = plan.clauses.find((c) => c.switchMs !== undefined)?.switchMs;
  const first = scan(st, plan, limit, after, { rejections: SCAN_BUDGET, ms: switchMs, until });
  // Only time hands the rest of the page to the index form: SCAN_BUDGET rejections end a short
  // page, cheaply.
  if (alternative === null || first.stopped !== 'time') return first;
  const rest = scan(st, alternative, limit - first.cnpjs.length, first.next, { rejections: SCAN_BUDGET, until });
  return { cnpjs: [...first.cnpjs, ...rest.cnpjs], next: rest.next };
}

/** A page of `plan`, ending early (`stopped`) at its budget of rejected candidates or time. */
function scan(
  st: Statements,
  plan: Plan,
  limit: number,
  after: string | null,
  budget: Budget,
): Page & { stopped?: 'rejections' | 'time' | 'budget' } {
  const switchAt = budget.ms === undefined ? Infinity : performance.now() + budget.ms;
  const streams: Generator<string>[] = [];
  const checks: (((cnpj: string) => boolean) | null)[] = [];
  for (const [i, v] of variantsOf(st, plan).entries()) {
    const match = matchSql(v.clauses)!;
    for (const p of st.files.parts) {
      for (const alnum of [false, true]) {
        streams.push(stream(st, p, alnum, match, after, i));
        checks.push(v.check);
      }
    }
  }
  const heads = streams.map((s) => s.next());
  try {
    const cnpjs: string[] = [];
    let rejected = 0;
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (!h.done && (best < 0 || h.value < (heads[best].value as string))) best = i;
      }
      if (best < 0) return { cnpjs, next: null };
      // One more match exists beyond a full page: the page ends at its last CNPJ.
      if (cnpjs.length === limit) return { cnpjs, next: cnpjs[limit - 1] };
      const cnpj = heads[best].value as string;
      heads[best] = streams[best].next();
      const check = checks[best];
      if (check === null || check(cnpj)) cnpjs.push(cnpj);
      else if (++rejected >= budget.rejections) return { cnpjs, next: cnpj, stopped: 'rejections' };
      else if ((rejected & 15) === 0 && performance.now() >= switchAt) return { cnpjs, next: cnpj, stopped: 'time' };
      // Out of the page's time: a shorter page, its cursor the candidate just examined (the next
      // page may then be empty: whether more follow is not known without more work).
      if (cnpjs.length < limit && performance.now() >= budget.until) return { cnpjs, next: cnpj, stopped: 'budget' };
    }
  } finally {
    // Ends the statements still open (a generator's return runs its iterator's cleanup).
    for (const s of streams) s.return(undefined);
  }
}
