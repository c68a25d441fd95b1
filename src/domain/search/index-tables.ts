// The index's side tables as the query plan needs them (plan.ts IndexTables), over the search
// parts attached to the snapshot's connection. Statements are prepared once per snapshot; the
// year/month and capital terms (a few thousand rows) are read once and kept.
import type { Statement } from 'better-sqlite3';
import type { SearchFiles } from '../registry/reader.ts';
import type { IndexTables, NameDocuments } from './plan.ts';

/** Prepared statements of one connection, by SQL text. */
export class Statements {
  private readonly cache = new Map<string, Statement>();
  constructor(readonly files: SearchFiles) {}
  get(sql: string): Statement {
    let s = this.cache.get(sql);
    if (s === undefined) {
      s = this.files.sqlite.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }
  /** The shared tables' schema (search.db). */
  get main(): string {
    return this.files.parts[0];
  }
}

/** Words of a prefix whose document counts are summed at most (bounds a part's vocabulary read: docs/benchmarks.md). */
const MAX_SUMMED = 20_000;

/** The exclusive upper bound of the strings starting with `prefix` ([a-z0-9_] terms: `{` sorts after them). */
const prefixEnd = (prefix: string) => `${prefix}{`;

export class SnapshotIndexTables implements IndexTables {
  private readonly ranges = new Map<string, ReadonlyMap<string, number>>();
  private readonly wordCounts = new Map<string, boolean>();
  private namePrefixLength: number | null | undefined;
  constructor(private readonly st: Statements) {}

  wordsWithPrefix(prefix: string, max: number): string[] {
    const found = new Set<string>();
    for (const p of this.st.files.parts) {
      const rows = this.st
        .get(`SELECT term FROM ${p}.vocabulary WHERE term >= ? AND term < ? LIMIT ?`)
        .pluck()
        .all(prefix, prefixEnd(prefix), max + 1) as string[];
      for (const t of rows) found.add(t);
      if (found.size > max) break;
    }
    return [...found].sort();
  }

  prefixDocuments(prefix: string, max: number, names: NameDocuments): number | null {
    const column = names === 'establishments' ? 'est_docs' : 'partner_docs';
    let n = 0;
    for (const p of this.st.files.parts) {
      if (!this.hasWordCounts(p)) return null;
      // Summed over at most MAX_SUMMED words per part: past them the prefix counts as common.
      const sql = `SELECT coalesce(sum(${column}), 0), count(*) FROM (SELECT ${column} FROM ${p}.vocabulary WHERE term >= ? AND term < ? LIMIT ${MAX_SUMMED + 1})`;
      const [docs, words] = this.st.get(sql).raw().get(prefix, prefixEnd(prefix)) as [number, number];
      n += words > MAX_SUMMED ? max + 1 : docs;
      if (n > max) return max + 1;
    }
    return n;
  }

  prefixIndex(names: NameDocuments): number | null {
    if (names === 'partners') return null;
    if (this.namePrefixLength === undefined) {
      // Indexes built before the name prefix terms have no such key.
      const v = this.st.get(`SELECT value FROM ${this.st.main}.meta WHERE key = 'name_prefix_terms'`).pluck().get() as
        string | undefined;
      this.namePrefixLength = v === undefined ? null : Number(v);
    }
    return this.namePrefixLength;
  }

  /** Whether part `p`'s vocabulary has its words' document counts (indexes built before them do not). */
  private hasWordCounts(p: string): boolean {
    let has = this.wordCounts.get(p);
    if (has === undefined) {
      has =
        (this.st.files.sqlite
          .prepare(`SELECT 1 FROM pragma_table_info('vocabulary', ?) WHERE name = 'partner_docs'`)
          .get(p) as unknown) !== undefined;
      this.wordCounts.set(p, has);
    }
    return has;
  }

  termsWithPrefix(prefix: string): string[] {
    const found = new Set<string>();
    for (const p of this.st.files.parts) {
      // fts5vocab reads each listed term's doclist: fine for CEP terms (a few hundred rows each).
      // A temp table: the connection's own, allowed on a read-only connection.
      this.st.files.sqlite.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab_${p} USING fts5vocab(${p}, est_fts, 'row')`,
      );
      const rows = this.st
        .get(`SELECT term FROM temp.vocab_${p} WHERE term >= ? AND term < ?`)
        .pluck()
        .all(prefix, prefixEnd(prefix)) as string[];
      for (const t of rows) found.add(t);
    }
    return [...found].sort();
  }

  cnaeCodes(prefix: string): number[] {
    const scale = 10 ** (7 - prefix.length);
    const low = Number(prefix) * scale;
    return this.st
      .get(`SELECT code FROM ${this.st.main}.cnae_codes WHERE code >= ? AND code < ?`)
      .pluck()
      .all(low, low + scale) as number[];
  }

  municipioCodes(name: string, ufs: readonly string[]): number[] {
    if (ufs.length) {
      const sql = `SELECT code FROM ${this.st.main}.municipios WHERE name = ? AND uf IN (${ufs.map(() => '?').join(', ')})`;
      return this.st
        .get(sql)
        .pluck()
        .all(name, ...ufs) as number[];
    }
    return this.st.get(`SELECT code FROM ${this.st.main}.municipios WHERE name = ?`).pluck().all(name) as number[];
  }

  rangeTerms(kind: '_y' | '_k'): ReadonlyMap<string, number> {
    let m = this.ranges.get(kind);
    if (m === undefined) {
      const rows = this.st
        .get(`SELECT term, n FROM ${this.st.main}.term_docs WHERE term >= ? AND term < ?`)
        .raw()
        .all(kind, prefixEnd(kind)) as [string, number][];
      m = new Map(rows);
      this.ranges.set(kind, m);
    }
    return m;
  }
}
