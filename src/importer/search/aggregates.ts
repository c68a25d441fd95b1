// The count tables of search.db (storage/snapshots/search-schema.ts), accumulated in memory while
// the establishments are indexed (the same pass over the rows) and written at the end. Their size
// is bounded by the code tables (UFs × municípios × situações × …), not by the number of rows.
// Keys are numbers packed from the values (a string key cost 0.7 µs per row, a number 0.05 µs);
// a row whose values do not fit (a garbage code) takes a slower string key.
import type { Sqlite } from '../../storage/sqlite.ts';
import type { DocumentValues } from '../../domain/search/document.ts';
import { normalizeText } from '../../domain/search/normalize.ts';
import { capitalBucket, term } from '../../domain/search/terms.ts';

type Value = number | null;

/** Counts per combination of values, each field packed in mixed radix: slot 0 is NULL, v is v + 1. */
class Counter {
  private readonly packed = new Map<number, number>();
  private readonly other = new Map<string, number>();
  constructor(private readonly radices: readonly number[]) {
    if (radices.reduce((a, b) => a * b, 1) > Number.MAX_SAFE_INTEGER) throw new Error('key too wide');
  }

  add(values: readonly Value[]): void {
    let key = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const slot = v === null ? 0 : v + 1;
      if (!(slot < this.radices[i])) {
        const s = JSON.stringify(values);
        this.other.set(s, (this.other.get(s) ?? 0) + 1);
        return;
      }
      key = key * this.radices[i] + slot;
    }
    this.packed.set(key, (this.packed.get(key) ?? 0) + 1);
  }

  *rows(): Generator<[Value[], number]> {
    for (const [packed, n] of this.packed) {
      const out: Value[] = new Array(this.radices.length);
      let key = packed;
      for (let i = this.radices.length - 1; i >= 0; i--) {
        const slot = key % this.radices[i];
        out[i] = slot === 0 ? null : slot - 1;
        key = (key - slot) / this.radices[i];
      }
      yield [out, n];
    }
    for (const [s, n] of this.other) yield [JSON.parse(s) as Value[], n];
  }
}

/** A UF as a number for packing (AA = 0 … ZZ = 675) and back. */
const ufCode = (uf: string | null) => (uf === null ? null : (uf.charCodeAt(0) - 65) * 26 + uf.charCodeAt(1) - 65);
const ufText = (n: Value) => (n === null ? null : String.fromCharCode(65 + Math.floor(n / 26), 65 + (n % 26)));
const bit = (b: boolean) => (b ? 1 : 0);

export class Aggregates {
  // uf, municipio, situacao, matriz_filial, porte, natureza, simples, mei, email, telefone
  private readonly place = new Counter([677, 10_001, 16, 4, 8, 10_001, 3, 3, 3, 3]);
  // cnae, uf, situacao, matriz_filial, porte
  private readonly cnae = new Counter([10_000_001, 677, 16, 4, 8]);
  private readonly terms = new Map<string, number>();
  private readonly cnaeCodes = new Set<number>();

  add(v: DocumentValues): void {
    const uf = ufCode(v.uf);
    this.place.add([uf, v.municipio, v.situacao, v.matrizFilial, v.porte, v.natureza, bit(v.simples), bit(v.mei), bit(v.email), bit(v.telefone)]);
    if (v.cnae !== null) {
      const code = Number(v.cnae);
      this.cnaeCodes.add(code);
      this.cnae.add([code, uf, v.situacao, v.matrizFilial, v.porte]);
    }
    for (const c of v.secondary) this.cnaeCodes.add(Number(c));
    if (v.inicio !== null) {
      this.count(term.inicio(Math.floor(v.inicio / 10000)));
      this.count(term.inicio(Math.floor(v.inicio / 100)));
    }
    if (v.capitalCents !== null) this.count(term.capital(capitalBucket(v.capitalCents)));
  }

  private count(t: string): void {
    this.terms.set(t, (this.terms.get(t) ?? 0) + 1);
  }

  /** Writes the tables; `municipioNames` is the snapshot's code table (code → name). */
  write(db: Sqlite, municipioNames: ReadonlyMap<number, string>): void {
    db.transaction(() => {
      const place = db.prepare('INSERT INTO agg_place VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      const ufsOf = new Map<number, Set<string>>();
      for (const [[uf, mun, ...rest], n] of this.place.rows()) {
        place.run(ufText(uf), mun, ...rest, n);
        if (uf !== null && mun !== null) ufsOf.set(mun, (ufsOf.get(mun) ?? new Set()).add(ufText(uf)!));
      }
      const cnae = db.prepare('INSERT INTO agg_cnae VALUES (?, ?, ?, ?, ?, ?)');
      for (const [[code, uf, ...rest], n] of this.cnae.rows()) cnae.run(code, ufText(uf), ...rest, n);
      const termDocs = db.prepare('INSERT INTO term_docs VALUES (?, ?)');
      for (const [t, n] of [...this.terms].sort((a, b) => (a[0] < b[0] ? -1 : 1))) termDocs.run(t, n);
      const codes = db.prepare('INSERT INTO cnae_codes VALUES (?)');
      for (const c of [...this.cnaeCodes].sort((a, b) => a - b)) codes.run(c);
      // A município code belongs to one UF; kept per (uf, code) should the dump ever disagree.
      const mun = db.prepare('INSERT OR IGNORE INTO municipios VALUES (?, ?, ?)');
      for (const [code, ufs] of ufsOf) {
        const name = normalizeText(municipioNames.get(code) ?? '');
        for (const uf of ufs) mun.run(uf, name, code);
      }
    })();
  }
}
