// The count tables of search.db (storage/snapshots/search-schema.ts), accumulated in memory while
// the establishments are indexed: SQLite calls search_row() for each row of the same INSERT …
// SELECT (document-sql.ts), which packs the row's values into one number per table and counts
// it (packing in SQL cost several times as much a row as in JS: docs/benchmarks.md). Their size
// is bounded by the code tables (UFs × municípios × situações × …), not by the number of rows.
import type { Sqlite } from '../../src/storage/sqlite.ts';
import { normalizeText } from '../../src/domain/search/normalize.ts';
import { FLAG, term } from '../../src/domain/search/terms.ts';

/** agg_uf: uf (AA = 0 … ZZ = 675), situacao, matriz_filial, porte, natureza, flags (terms.ts FLAG bits). */
const UF_RADICES = [677, 16, 4, 8, 10_001, 17] as const;
/** agg_municipio: uf, municipio, situacao, matriz_filial, porte. */
const MUN_RADICES = [677, 10_001, 16, 4, 8] as const;
/** agg_cnae: cnae (7 digits), uf, situacao, matriz_filial. */
const CNAE_RADICES = [10_000_001, 677, 16, 4] as const;

type Value = number | null;

/**
 * One value's slot in a packed key: 0 for NULL (and for a value that is not a code: TEXT garbage
 * makes no filter term either), v + 1 for a code v; -1 when the code is too large for the radix.
 */
function slot(v: unknown, radix: number): number {
  if (typeof v !== 'number') return 0;
  return v < radix - 1 ? v + 1 : -1;
}
const json = (values: unknown[]) => JSON.stringify(values.map((x) => (typeof x === 'number' ? x : null)));

/** A UF as a number for packing (AA = 0 … ZZ = 675) and back. */
function ufNumber(uf: unknown): number | null {
  if (typeof uf !== 'string' || uf.length !== 2) return null;
  const a = uf.charCodeAt(0) - 65;
  const b = uf.charCodeAt(1) - 65;
  return a >= 0 && a < 26 && b >= 0 && b < 26 ? a * 26 + b : null;
}

/** A packed key back to its values (slot 0 is NULL, v + 1 is v), or a JSON key parsed. */
function unpack(key: number | string, radices: readonly number[]): Value[] {
  if (typeof key === 'string') return JSON.parse(key) as Value[];
  const out: Value[] = new Array(radices.length);
  let rest: number = key;
  for (let i = radices.length - 1; i >= 0; i--) {
    const slot = rest % radices[i];
    out[i] = slot === 0 ? null : slot - 1;
    rest = (rest - slot) / radices[i];
  }
  return out;
}

/**
 * Counts of packed keys. Keys beyond 2^31 are heap numbers in V8, slow as Map keys (a cost per
 * row that showed in the build: docs/benchmarks.md): they are collected in a typed array, sorted
 * natively once it is full and counted by runs, so the Map sees each distinct key once per batch.
 */
class KeyCounter {
  readonly counts = new Map<number | string, number>();
  private readonly batch = new Float64Array(1 << 18);
  private n = 0;

  add(key: number | string): void {
    if (typeof key === 'string') {
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      return;
    }
    this.batch[this.n++] = key;
    if (this.n === this.batch.length) this.flush();
  }

  flush(): Map<number | string, number> {
    const keys = this.batch.subarray(0, this.n).sort();
    for (let i = 0; i < keys.length;) {
      let j = i + 1;
      while (j < keys.length && keys[j] === keys[i]) j++;
      this.counts.set(keys[i], (this.counts.get(keys[i]) ?? 0) + (j - i));
      i = j;
    }
    this.n = 0;
    return this.counts;
  }
}

const ufText = (n: Value) => (n === null ? null : String.fromCharCode(65 + Math.floor(n / 26), 65 + (n % 26)));
const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);

export class Aggregates {
  private readonly uf = new KeyCounter();
  private readonly mun = new KeyCounter();
  private readonly cnae = new KeyCounter();
  /** Establishments per yyyymm and per capital bucket ('z': zero). */
  private readonly months = new Map<number, number>();
  private readonly buckets = new Map<number | string, number>();

  /** One establishment's values, as document-sql.ts passes them to search_row(). */
  add(
    uf: unknown,
    mun: unknown,
    sit: unknown,
    mf: unknown,
    porte: unknown,
    nat: unknown,
    flags: unknown,
    cnae: unknown,
    month: unknown,
    bucket: unknown,
  ): void {
    // Written out, no arrays: this runs for every establishment.
    const u = ufNumber(uf);
    const sU = slot(u, 677),
      sM = slot(mun, 10_001),
      sS = slot(sit, 16),
      sF = slot(mf, 4),
      sP = slot(porte, 8),
      sN = slot(nat, 10_001),
      sB = slot(flags, 17);
    const common = sU >= 0 && sS >= 0 && sF >= 0;
    this.uf.add(
      common && sP >= 0 && sN >= 0 && sB >= 0
        ? ((((sU * 16 + sS) * 4 + sF) * 8 + sP) * 10_001 + sN) * 17 + sB
        : json([u, sit, mf, porte, nat, flags]),
    );
    this.mun.add(
      common && sM >= 0 && sP >= 0
        ? (((sU * 10_001 + sM) * 16 + sS) * 4 + sF) * 8 + sP
        : json([u, mun, sit, mf, porte]),
    );
    if (typeof cnae === 'number') {
      const sC = slot(cnae, 10_000_001);
      this.cnae.add(common && sC >= 0 ? ((sC * 677 + sU) * 16 + sS) * 4 + sF : json([cnae, u, sit, mf]));
    }
    if (typeof month === 'number') bump(this.months, month);
    if (bucket !== null) bump(this.buckets, bucket as number | string);
  }

  /** Writes this part's share of the shared tables (storage/snapshots/search-schema.ts). */
  write(db: Sqlite, municipioNames: ReadonlyMap<number, string>, secondaryCodes: Iterable<number>): void {
    db.transaction(() => {
      const ufs = db.prepare('INSERT INTO agg_uf VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      for (const [key, n] of this.uf.flush()) {
        const [uf, sit, mf, porte, nat, flags] = unpack(key, UF_RADICES);
        const bit = (f: number) => (flags === null ? null : (flags & f) !== 0 ? 1 : 0);
        ufs.run(
          ufText(uf),
          sit,
          mf,
          porte,
          nat,
          bit(FLAG.opc_simples),
          bit(FLAG.opc_mei),
          bit(FLAG.has_email),
          bit(FLAG.has_telefone),
          n,
        );
      }
      const muns = db.prepare('INSERT INTO agg_municipio VALUES (?, ?, ?, ?, ?, ?)');
      const ufsOf = new Map<number, Set<string>>();
      for (const [key, n] of this.mun.flush()) {
        const [uf, mun, sit, mf, porte] = unpack(key, MUN_RADICES);
        muns.run(ufText(uf), mun, sit, mf, porte, n);
        if (uf !== null && mun !== null) ufsOf.set(mun, (ufsOf.get(mun) ?? new Set()).add(ufText(uf)!));
      }
      const cnae = db.prepare('INSERT INTO agg_cnae VALUES (?, ?, ?, ?, ?)');
      const codes = new Set(secondaryCodes);
      for (const [key, n] of this.cnae.flush()) {
        const [code, uf, sit, mf] = unpack(key, CNAE_RADICES);
        cnae.run(code, ufText(uf), sit, mf, n);
        if (code !== null) codes.add(code);
      }
      const termDocs = db.prepare('INSERT INTO term_docs VALUES (?, ?)');
      const years = new Map<number, number>();
      for (const [ym, n] of this.months) {
        termDocs.run(term.inicio(ym), n);
        years.set(Math.floor(ym / 100), (years.get(Math.floor(ym / 100)) ?? 0) + n);
      }
      for (const [y, n] of years) termDocs.run(term.inicio(y), n);
      for (const [b, n] of this.buckets) termDocs.run(term.capital(b === 'z' ? -1 : Number(b)), n);
      const codeRow = db.prepare('INSERT INTO cnae_codes VALUES (?)');
      for (const c of [...codes].sort((a, b) => a - b)) codeRow.run(c);
      // A município code belongs to one UF; kept per (uf, code) should the dump ever disagree.
      const mun = db.prepare('INSERT OR IGNORE INTO municipios VALUES (?, ?, ?)');
      for (const [code, ufs] of ufsOf) {
        const name = normalizeText(municipioNames.get(code) ?? '');
        for (const uf of ufs) mun.run(uf, name, code);
      }
    })();
  }
}
