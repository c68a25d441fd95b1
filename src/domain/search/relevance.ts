// The relevance order of a name search (issue #46; docs/search.md "Relevance"). A page walks
// TIERS, each after the one before, nothing found twice:
//   0. exact: establishments whose razão social or nome fantasia has exactly the query's core
//      words (name-key.ts), in order before another order; found through `name_keys`;
//   1. words: every word of the query (today's match, order=cnpj), in CNPJ order;
//   2. exact after a forgiving spelling (forgiving.ts: joined/split words, corrections);
//   3+i. the words of forgiving spelling i, in CNPJ order.
// An exact tier is small (names equal to the query), so it is read whole and sorted by a static
// importance: in order before another order, active before not, then the company's number of
// establishments (its size as the registry sees it), capital, the root, the head office first.
// A words tier can hold millions: it is walked in CNPJ order (page.ts), the order its index
// keeps; what it holds that an earlier tier listed is skipped.
// The cursor names the tier and the last item: a CNPJ in an exact tier (found again in the
// same sorted list: the snapshot does not change under a cursor), the CNPJ to go on after in a
// words tier. So pages neither repeat nor skip.
// Grouped (`group=company`): one item per CNPJ root, the first time the root is met; the item is
// the head office when this search finds it, else the establishment met; `found` is how many of
// the root's establishments the search finds (any tier). A grouped cursor in a words tier is past
// the whole root.
import { variantsOf } from './checks.ts';
import type { Statements } from './index-tables.ts';
import { coreWords, formDistance, nameKey, sameName } from './name-key.ts';
import { searchPage, PAGE_MS } from './page.ts';
import { PageReads } from './page-reads.ts';
import { matchSql, type Plan } from './plan.ts';
import { nameHolds, queryWords } from './prefix.ts';
import { cnpjOfRowid } from './rowid.ts';

/** Candidates read per key and part at most: more names equal to one query are listed by the words tier. */
export const MAX_EXACT = 200;
/**
 * Of those, the companies (roots) an exact tier lists per key and part, and the establishments
 * per company: each costs a row read (at random when cold: ~0.6 ms on a full month), and names
 * shared by thousands of companies say nothing more with more of them. The rest of the names
 * equal to the query come in the words tier.
 */
export const EXACT_ROOTS = 16;
export const EXACT_PER_ROOT = 4;
/** Candidates a words tier reads per statement. */
const BATCH = 64;
/**
 * A root of at most this many establishments is asked what a words tier finds of it by reading
 * its establishments' names (nameHolds), a bigger one through `est_fts` range queries.
 */
const SMALL_ROOT = 32;

export interface RankedItem {
  cnpj: string;
  /** The tier it was found in (tiersOf). */
  tier: number;
  /** Grouped: how many of the root's establishments this search finds. */
  found?: number;
}
export interface RankedPage {
  items: RankedItem[];
  /** The next page's cursor key (`tier:position`), null when there is none. */
  next: string | null;
}

/** A name query made ready: its spellings (the typed one first) and the plan of each. */
export interface NameQuery {
  /** The typed spelling's core words and plan (spellings[0], plans[0], known without the others). */
  words: string[];
  typed: Plan;
  /** The query's whole text, normalised (its legal form and connectors rank the exact names: formDistance). */
  text: string;
  /** Every spelling, the typed one first, and the plan of each: computed when first read (index.ts). */
  readonly spellings: string[][];
  readonly plans: Plan[];
  /** The plan of the other filters, null when there are none. */
  filters: Plan | null;
  /** Whether the index holds name_keys (built since issue #46); without, no exact tier. */
  hasKeys: boolean;
  /**
   * Whether the typed words find anything (tiers 0 and 1), once a page has seen it: the forgiving
   * spellings correct known words only when they find nothing (forgiving.ts), and need not ask again.
   */
  typedFinds?: boolean;
}

type Tier = { kind: 'exact'; spellings: number[] } | { kind: 'words'; spelling: number };

export function tiersOf(q: NameQuery): Tier[] {
  const rest = q.spellings.slice(1).map((_, i) => i + 1);
  const tiers: Tier[] = [...BASE_TIERS];
  if (rest.length)
    tiers.push({ kind: 'exact', spellings: rest }, ...rest.map((s): Tier => ({ kind: 'words', spelling: s })));
  return tiers;
}

/** Whether tier `i` of tiersOf is an exact one (0 and 2). */
export const exactTier = (i: number) => i === 0 || i === 2;

interface Exact {
  cnpj: string;
  part: string;
  root: string;
  sort: (number | string)[];
}

const root = (cnpj: string) => cnpj.slice(0, 8);
/** The typed spelling's tiers: known without the forgiving spellings. */
const BASE_TIERS: Tier[] = [
  { kind: 'exact', spellings: [0] },
  { kind: 'words', spelling: 0 },
];
export class Ranker {
  /** The page's reads of establishments and roots, each made once (suggest reorders with them too). */
  readonly reads: PageReads;

  constructor(
    private readonly st: Statements,
    private readonly q: NameQuery,
    private readonly grouped: boolean,
    /** Grouped items count what the search finds of their root (false: suggest, which does not show it). */
    private readonly counted = true,
    /**
     * A page that holds this many items once the typed words' tiers are walked ends there, with no
     * cursor (suggest, which does not page: a name being typed that the typed words find needs
     * no forgiving spelling).
     */
    private readonly enough = Infinity,
  ) {
    this.reads = new PageReads(st);
  }

  private readonly exactLists = new Map<number, Exact[]>();
  private readonly foundOf = new Map<string, Set<string>>();
  private readonly requiredOf = new Map<number, string[]>();

  /** The words a words tier of spelling `s` requires (the plan's queryWords). */
  private required(s: number): string[] {
    let w = this.requiredOf.get(s);
    if (w === undefined)
      this.requiredOf.set(s, (w = queryWords(s === 0 ? this.q.text : this.q.spellings[s].join(' '))));
    return w;
  }

  /** Whether establishment `cnpj` passes the query's other filters. */
  private passesFilters(cnpj: string): boolean {
    return this.q.filters === null || this.reads.matchesAnyPart(this.q.filters, cnpj);
  }

  /**
   * The establishments of root `r` that words tier `spelling` finds, or whether it finds any
   * (`any`): read from a small root's names, else asked of `est_fts` by rowid range.
   */
  private rootFinds(r: string, spelling: number, any: boolean): string[] {
    const out: string[] = [];
    if (this.reads.size(r) <= SMALL_ROOT) {
      const required = this.required(spelling);
      for (const [c, doc] of this.reads.rootDocs(r))
        if (nameHolds(required, doc) && this.passesFilters(c)) {
          out.push(c);
          if (any) return out;
        }
      return out;
    }
    const plan = this.planOf(spelling);
    if (plan.empty) return out;
    for (const v of variantsOf(this.st, plan)) {
      const match = matchSql(v.clauses);
      for (const p of this.st.files.parts)
        for (const [lo, hi] of this.reads.rangesOf(p, r)) {
          const sql = `SELECT rowid FROM ${p}.est_fts WHERE est_fts MATCH ? AND rowid >= ? AND rowid <= ? ORDER BY rowid`;
          for (const rowid of this.st.get(sql).pluck().safeIntegers(true).all(match, lo, hi) as bigint[]) {
            const c = cnpjOf(rowid);
            if (v.check === null || v.check(c)) {
              out.push(c);
              if (any) return out;
            }
          }
        }
    }
    return out;
  }

  /** The sorted list of an exact tier (`index` in tiersOf), made once per page. */
  exactList(index: number, spellings: number[]): Exact[] {
    let list = this.exactLists.get(index);
    if (list !== undefined) return list;
    if (!this.q.hasKeys) return [];
    const earlier = index === 0 ? [] : this.exactList(0, [0]);
    const taken = new Set(earlier.map((e) => e.cnpj));
    const byCnpj = new Map<string, Exact>();
    for (const s of spellings) {
      const words = s === 0 ? this.q.words : this.q.spellings[s];
      const key = BigInt(nameKey(words));
      for (const part of this.st.files.parts) {
        const rowids = this.st
          .get(`SELECT rowid FROM ${part}.name_keys WHERE key = ? ORDER BY rowid LIMIT ${MAX_EXACT}`)
          .pluck()
          .safeIntegers(true)
          .all(key) as bigint[];
        // Accepted establishments per root of this key and part (rowid order is CNPJ order: a root's are together).
        const perRoot = new Map<string, number>();
        for (const rowid of rowids) {
          const cnpj = cnpjOf(rowid);
          if (byCnpj.has(cnpj) || taken.has(cnpj)) continue;
          const listed = perRoot.get(root(cnpj));
          if (listed === undefined ? perRoot.size >= EXACT_ROOTS : listed >= EXACT_PER_ROOT) {
            if (listed === undefined) break;
            continue;
          }
          const row = this.reads.row(cnpj);
          if (row === undefined) continue;
          const text = (v: unknown) => (typeof v === 'string' ? v : '');
          const names = [text(row[0]), text(row[1])];
          // Per name that matches: in order (0) or not (1), and how far its legal form and
          // connectors are from the ones typed (0: the whole name as typed).
          const ranks = names.flatMap((n) => {
            const same = sameName(coreWords(n), words);
            return same === null ? [] : [[same, formDistance(n, this.q.text)] as const];
          });
          if (!ranks.length || !this.reads.matches(this.q.filters, part, cnpj)) continue;
          const [order, form] = ranks.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
          const doc = this.reads.doc(cnpj);
          // A forgiving spelling's exact name that the typed words also find belongs to tier 1
          // (it passes the filters: asked above).
          if (s > 0 && nameHolds(this.required(0), doc)) continue;
          const r = root(cnpj);
          perRoot.set(r, (perRoot.get(r) ?? 0) + 1);
          const size = this.reads.size(r);
          const capital = Number(row[3]) || 0;
          byCnpj.set(cnpj, {
            cnpj,
            part,
            root: r,
            sort: [
              s,
              order,
              form,
              row[2] === 2 ? 0 : 1,
              -size,
              -capital,
              r,
              cnpj.slice(8, 12) === '0001' ? 0 : 1,
              cnpj,
            ],
          });
        }
      }
    }
    list = [...byCnpj.values()].sort((a, b) => compare(a.sort, b.sort));
    this.exactLists.set(index, list);
    return list;
  }

  /** The plan of spelling `i`, the typed one without computing the others. */
  private planOf(i: number): Plan {
    return i === 0 ? this.q.typed : this.q.plans[i];
  }

  private allTiers: Tier[] | null = null;
  /** The tiers up to `index`: the typed ones (0, 1) without computing the forgiving spellings. */
  private tiers(index: number): Tier[] {
    if (index < 2) return BASE_TIERS;
    this.allTiers ??= tiersOf(this.q);
    return this.allTiers;
  }

  /**
   * What the search finds of root `r`, met through `cnpj` in `tier`, for grouping: what the typed
   * words find (tiers 0 and 1), and what the root's own tier finds when it is a forgiving one.
   */
  rootFound(r: string, tier: number, cnpj: string): Set<string> {
    const key = `${r} ${tier}`;
    let found = this.foundOf.get(key);
    if (found !== undefined) return found;
    // Most companies have one establishment: the one met.
    if (this.reads.size(r) === 1) return new Set([cnpj]);
    found = new Set();
    const tiers = this.tiers(tier);
    const counted = tier < 2 ? [0, 1] : [0, 1, tier];
    for (const i of counted) {
      const t = tiers[i];
      if (t.kind === 'exact') {
        for (const e of this.exactList(i, t.spellings)) if (e.root === r) found.add(e.cnpj);
        continue;
      }
      for (const c of this.rootFinds(r, t.spelling, false)) found.add(c);
    }
    found.add(cnpj);
    this.foundOf.set(key, found);
    return found;
  }

  /** The item of a root met through `cnpj` in `tier`: its head office when found, else `cnpj`. */
  private item(cnpj: string, tier: number): RankedItem {
    if (!this.grouped) return { cnpj, tier };
    const r = root(cnpj);
    const matriz = this.reads.size(r) === 1 ? cnpj : this.reads.matriz(r);
    if (!this.counted) {
      const found = matriz !== undefined && matriz !== cnpj && this.finds(matriz);
      return { cnpj: found ? matriz : cnpj, tier };
    }
    const found = this.rootFound(r, tier, cnpj);
    return { cnpj: matriz !== undefined && found.has(matriz) ? matriz : cnpj, tier, found: found.size };
  }

  /** Whether the typed words find establishment `cnpj` (tiers 0 and 1). */
  private finds(cnpj: string): boolean {
    for (const [i, t] of BASE_TIERS.entries()) {
      if (
        t.kind === 'exact'
          ? this.exactList(i, t.spellings).some((e) => e.cnpj === cnpj)
          : nameHolds(this.required(t.spelling), this.reads.doc(cnpj)) && this.passesFilters(cnpj)
      )
        return true;
    }
    return false;
  }

  /** Whether a root met in words tier `index` was listed by an earlier tier. */
  private rootEarlier(r: string, index: number): boolean {
    const tiers = this.tiers(index);
    for (let i = 0; i < index; i++) {
      const t = tiers[i];
      if (t.kind === 'exact') {
        if (this.exactList(i, t.spellings).some((e) => e.root === r)) return true;
      } else if (this.rootFinds(r, t.spelling, true).length) return true;
    }
    return false;
  }

  /**
   * Whether establishment `cnpj`, met in words tier `index`, was listed by an earlier tier (it
   * passes the filters: every tier's plan holds them).
   */
  private earlier(cnpj: string, index: number): boolean {
    const tiers = this.tiers(index);
    for (let i = 0; i < index; i++) {
      const t = tiers[i];
      if (
        t.kind === 'exact'
          ? this.exactList(i, t.spellings).some((e) => e.cnpj === cnpj)
          : nameHolds(this.required(t.spelling), this.reads.doc(cnpj))
      )
        return true;
    }
    return false;
  }

  page(limit: number, cursor: string | null, ms = PAGE_MS): RankedPage {
    const until = performance.now() + ms;
    let [tier, position] = parseCursor(cursor, (t) => t < this.tiers(t).length);
    const items: RankedItem[] = [];
    const roots = new Set<string>();
    for (; tier < this.tiers(tier).length; tier++, position = null) {
      const t = this.tiers(tier)[tier];
      if (t.kind === 'exact') {
        const list = this.exactList(tier, t.spellings);
        if (tier === 0 && list.length) this.q.typedFinds = true;
        let at = position === null ? 0 : list.findIndex((e) => e.cnpj === position) + 1;
        if (position !== null && at === 0) throw new BadCursor();
        for (; at < list.length; at++) {
          const e = list[at];
          if (this.grouped) {
            if (roots.has(e.root) || list.slice(0, at).some((x) => x.root === e.root)) continue;
            if (tier > 0 && this.rootEarlier(e.root, tier)) continue;
          }
          if (items.length === limit) return { items, next: `${tier}:${list[at - 1].cnpj}` };
          items.push(this.item(e.cnpj, tier));
          roots.add(e.root);
          // Each item reads its root (head office, what the search finds of it): past the budget
          // the page ends here, its cursor at this item.
          if (performance.now() >= until) return { items, next: `${tier}:${e.cnpj}` };
        }
        continue;
      }
      const plan = this.planOf(t.spelling);
      if (plan.empty) continue;
      let after = position;
      for (;;) {
        const left = until - performance.now();
        const batch = searchPage(this.st, plan, BATCH, after, Math.max(left, 1));
        if (tier === 1 && position === null && (batch.cnpjs.length || batch.next === null))
          this.q.typedFinds ||= batch.cnpjs.length > 0;
        for (const cnpj of batch.cnpjs) {
          const r = root(cnpj);
          if (this.grouped && (roots.has(r) || (after !== null && root(after) === r))) continue;
          if (this.grouped ? this.rootEarlier(r, tier) : this.earlier(cnpj, tier)) {
            if (this.grouped) roots.add(r);
            continue;
          }
          if (items.length === limit) return { items, next: `${tier}:${after ?? ''}` };
          items.push(this.item(cnpj, tier));
          roots.add(r);
          after = this.grouped ? `${r}ZZZZ` : cnpj;
        }
        if (batch.next === null) break;
        if (after === null || batch.next > after)
          after = this.grouped && roots.has(root(batch.next)) ? `${root(batch.next)}ZZZZ` : batch.next;
        if (performance.now() >= until) return { items, next: `${tier}:${after ?? ''}` };
      }
      // No cursor: a page cut short by `enough` is suggest's, which does not page (and tier 2
      // may not exist without computing the spellings this saves).
      if (tier === 1 && items.length >= this.enough) return { items, next: null };
      if (performance.now() >= until && tier + 1 < this.tiers(tier + 1).length) return { items, next: `${tier + 1}:` };
    }
    return { items, next: null };
  }
}

export class BadCursor extends Error {}

function parseCursor(cursor: string | null, exists: (tier: number) => boolean): [number, string | null] {
  if (cursor === null) return [0, null];
  const m = /^(\d+):([0-9A-Z]{12,14})?$/.exec(cursor);
  if (m === null || Number(m[1]) > 64 || !exists(Number(m[1]))) throw new BadCursor();
  return [Number(m[1]), m[2] ?? null];
}

function compare(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

const cnpjOf = (rowid: bigint) => cnpjOfRowid(rowid);
