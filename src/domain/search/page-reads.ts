// What one page of the relevance order (relevance.ts) reads of the snapshot besides the index's
// walks, each read once per page: an establishment's names and ranking columns, a root's size
// (its number of establishments), head office and establishments, and whether an establishment
// matches a plan (`est_fts`, `rowid = ?`). A page asks these of the same roots several times
// (its exact names, its grouping, what an earlier tier listed).
import type { Statement } from 'better-sqlite3';
import { variantsOf } from './checks.ts';
import type { Statements } from './index-tables.ts';
import { normalizeText } from './normalize.ts';
import { matchSql, type Plan } from './plan.ts';
import { ALNUM_BASE, rootRowidRanges, rowidOfCnpj } from './rowid.ts';
import { flagTerms } from './terms.ts';

/** razão social, nome fantasia, situação cadastral, capital (cents) of an establishment. */
export type RankRow = [unknown, unknown, unknown, unknown];

/** The words of an establishment's names as the build indexes them (razão social, nome fantasia). */
export const docOf = (razao: unknown, fantasia: unknown): string[] => {
  const t = normalizeText(`${typeof razao === 'string' ? razao : ''} ${typeof fantasia === 'string' ? fantasia : ''}`);
  return t === '' ? [] : t.split(' ');
};

/** Per connection's statements and part: whether the part holds any alphanumeric CNPJ. */
const hasAlnum = new WeakMap<Statements, Map<string, boolean>>();

export class PageReads {
  private readonly rowOf: Statement;
  private readonly sizeOf: Statement;
  private readonly matrizOf: Statement;
  private readonly razaoOf: Statement;
  private readonly officesOf: Statement;
  private readonly sizes = new Map<string, number>();
  private readonly matrizes = new Map<string, string | undefined>();
  private readonly docs = new Map<string, string[]>();
  private readonly rootDocsOf = new Map<string, [string, string[]][]>();

  constructor(private readonly st: Statements) {
    this.rowOf = st
      .get(
        'SELECT c.razao_social, e.nome_fantasia, e.situacao_cadastral, c.capital_social_cents FROM est.establishments e ' +
          'LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) WHERE e.cnpj = ?',
      )
      .raw(true);
    this.sizeOf = st.get('SELECT count(*) FROM est.establishments WHERE cnpj >= ? AND cnpj < ?').pluck(true);
    this.matrizOf = st
      .get('SELECT cnpj FROM est.establishments WHERE cnpj >= ? AND cnpj < ? AND matriz_filial = 1 LIMIT 1')
      .pluck(true);
    this.razaoOf = st.get('SELECT razao_social FROM reg.companies WHERE basico = ?').pluck(true);
    this.officesOf = st
      .get('SELECT cnpj, nome_fantasia FROM est.establishments WHERE cnpj >= ? AND cnpj < ? ORDER BY cnpj')
      .raw(true);
  }

  /** An establishment's ranking row, undefined when there is none; its name document is kept. */
  row(cnpj: string): RankRow | undefined {
    const row = this.rowOf.get(cnpj) as RankRow | undefined;
    if (row !== undefined) this.docs.set(cnpj, docOf(row[0], row[1]));
    return row;
  }

  /** The name document of establishment `cnpj`. */
  doc(cnpj: string): string[] {
    let d = this.docs.get(cnpj);
    if (d === undefined) {
      const row = this.rowOf.get(cnpj) as RankRow | undefined;
      this.docs.set(cnpj, (d = row === undefined ? [] : docOf(row[0], row[1])));
    }
    return d;
  }

  /** The establishments of root `r` with their name documents (for a small root: relevance.ts SMALL_ROOT). */
  rootDocs(r: string): [string, string[]][] {
    let list = this.rootDocsOf.get(r);
    if (list === undefined) {
      const razao = this.razaoOf.get(r);
      list = (this.officesOf.all(r, `${r}{`) as [string, unknown][]).map(([c, f]): [string, string[]] => [
        c,
        docOf(razao, f),
      ]);
      this.rootDocsOf.set(r, list);
    }
    return list;
  }

  /** How many establishments root `r` has. */
  size(r: string): number {
    let n = this.sizes.get(r);
    if (n === undefined) this.sizes.set(r, (n = Number(this.sizeOf.get(r, `${r}{`))));
    return n;
  }

  /** The head office of root `r`, undefined when none is marked. */
  matriz(r: string): string | undefined {
    if (!this.matrizes.has(r)) this.matrizes.set(r, this.matrizOf.get(r, `${r}{`) as string | undefined);
    return this.matrizes.get(r);
  }

  /** Whether the establishment (`part`, CNPJ) matches `plan` (null: no plan, every one does). */
  matches(plan: Plan | null, part: string, cnpj: string): boolean {
    if (plan === null) return true;
    if (plan.empty) return false;
    const rowid = BigInt(rowidOfCnpj(cnpj));
    for (const v of variantsOf(this.st, plan)) {
      const hit = this.st
        .get(`SELECT 1 FROM ${part}.est_fts WHERE est_fts MATCH ? AND rowid = ?`)
        .pluck()
        .get(matchSql(v.clauses), rowid);
      if (hit !== undefined && (v.check === null || v.check(cnpj))) return true;
    }
    return false;
  }

  matchesAnyPart(plan: Plan, cnpj: string): boolean {
    return this.st.files.parts.some((p) => this.matches(plan, p, cnpj));
  }

  /** The rowid ranges of root `r` worth asking part `p` (its alphanumeric range only when the part holds any). */
  rangesOf(p: string, r: string): [bigint, bigint][] {
    let alnum = hasAlnum.get(this.st)?.get(p);
    if (alnum === undefined) {
      // Every document holds one flags term: their OR is every document (a contentless table cannot be scanned).
      const every = flagTerms({})
        .map((t) => `"${t}"`)
        .join(' OR ');
      alnum =
        this.st
          .get(`SELECT 1 FROM ${p}.est_fts WHERE est_fts MATCH ? AND rowid >= ? LIMIT 1`)
          .pluck()
          .get(every, BigInt(ALNUM_BASE)) !== undefined;
      if (!hasAlnum.has(this.st)) hasAlnum.set(this.st, new Map());
      hasAlnum.get(this.st)!.set(p, alnum);
    }
    const ranges = rootRowidRanges(r);
    return alnum ? ranges : ranges.filter(([lo]) => lo < BigInt(ALNUM_BASE));
  }
}
