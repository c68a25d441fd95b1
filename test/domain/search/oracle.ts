// The test oracle of the search: the same filters evaluated by brute force, in plain SQL over the
// snapshot's tables (no search index involved), written from the filters' definitions in
// docs/search.md. Name words use the one normalisation function (its own tests cover it).
import { openSqlite, type Sqlite } from '../../../src/storage/sqlite.ts';
import { attachSnapshot } from '../../../src/storage/snapshots/attach.ts';
import { NAME_STOP_WORDS, normalizeText } from '../../../src/domain/search/normalize.ts';
import {
  parseIsoDate,
  SITUACOES,
  type CompanyFilters,
  type PartnerFilters,
} from '../../../src/domain/search/filters.ts';

export class Oracle {
  readonly db: Sqlite;
  constructor(snapshotDir: string) {
    this.db = openSqlite(':memory:');
    attachSnapshot(this.db, snapshotDir);
    this.db.function('norm', { deterministic: true }, (s: unknown) =>
      typeof s === 'string' ? ` ${normalizeText(s)} ` : ' ',
    );
    // A CEP as its 8 digits the way the response shows it (an integer padded; 7-digit text padded).
    this.db.function('cep8', { deterministic: true }, (v: unknown) =>
      typeof v === 'number' || typeof v === 'bigint'
        ? String(v).padStart(8, '0')
        : typeof v === 'string' && /^\d{7,8}$/.test(v)
          ? v.padStart(8, '0')
          : null,
    );
  }

  private where(f: CompanyFilters): { sql: string; args: unknown[] } {
    const w: string[] = [];
    const a: unknown[] = [];
    const inList = (expr: string, values: readonly unknown[]) => {
      w.push(`${expr} IN (${values.map(() => '?').join(', ')})`);
      a.push(...values);
    };
    if (f.q !== undefined) {
      const words = needed(f.q);
      words.forEach((word, i) => {
        const prefix = i === words.length - 1 && word.length >= 2;
        w.push(`(norm(c.razao_social) || norm(e.nome_fantasia)) LIKE ?`);
        a.push(prefix ? `% ${word}%` : `% ${word} %`);
      });
    }
    const ufs = (f.uf ?? []).map((u) => u.toUpperCase());
    if (ufs.length) inList('e.uf', ufs);
    if (f.municipio?.length) {
      const names = f.municipio.filter((m) => typeof m === 'string').map((m) => normalizeText(m as string));
      const codes = f.municipio.filter((m) => typeof m === 'number');
      // By name: the codes of the municípios code table with that name (the uf filter applies as usual).
      const byName = names.length
        ? `OR e.municipio IN (SELECT code FROM reg.municipios WHERE trim(norm(description)) IN (${names.map(() => '?').join(', ')}))`
        : '';
      w.push(`(e.municipio IN (${codes.map(() => '?').join(', ') || 'NULL'}) ${byName})`);
      a.push(...codes, ...names);
    }
    if (f.cep?.length) {
      w.push(`(${f.cep.map(() => 'substr(cep8(e.cep), 1, ?) = ?').join(' OR ')})`);
      for (const p of f.cep) a.push(p.length, p);
    }
    if (f.cnae?.length) {
      const one = (p: string) => {
        a.push(p.length, p);
        if (f.cnae_secundario) a.push(`%,${p}%`);
        return (
          `(typeof(e.cnae_fiscal) = 'integer' AND substr(printf('%07d', e.cnae_fiscal), 1, ?) = ?` +
          (f.cnae_secundario ? ` OR (',' || e.cnaes_secundarios) LIKE ?)` : ')')
        );
      };
      w.push(`(${f.cnae.map(one).join(' OR ')})`);
    }
    if (f.situacao_cadastral?.length)
      inList(
        'e.situacao_cadastral',
        f.situacao_cadastral.map((s) => SITUACOES[s]),
      );
    if (f.matriz_filial) inList('e.matriz_filial', [f.matriz_filial === 'matriz' ? 1 : 2]);
    if (f.natureza_juridica?.length) inList('c.natureza_juridica', f.natureza_juridica);
    if (f.porte?.length) inList('c.porte', f.porte);
    const flag = (v: boolean | undefined, expr: string) => {
      if (v !== undefined) w.push(`coalesce(${expr}, 0) = ${v ? 1 : 0}`);
    };
    flag(f.opc_simples, `s.opcao_simples = 'S'`);
    flag(f.opc_mei, `s.opcao_mei = 'S'`);
    flag(f.has_email, `trim(e.email) <> ''`);
    flag(f.has_telefone, `e.telefone_1 IS NOT NULL OR e.telefone_2 IS NOT NULL`);
    if (f.inicio_atividade_min !== undefined)
      w.push(`e.data_inicio_atividade >= ${parseIsoDate(f.inicio_atividade_min)}`);
    if (f.inicio_atividade_max !== undefined)
      w.push(`e.data_inicio_atividade <= ${parseIsoDate(f.inicio_atividade_max)}`);
    // Cents past 2^53 are the TEXT of their digits: compared as their REAL (the bounds are numbers too).
    const capital = `CASE typeof(c.capital_social_cents) WHEN 'integer' THEN c.capital_social_cents WHEN 'text' THEN CAST(c.capital_social_cents AS REAL) END`;
    if (f.capital_social_min !== undefined) w.push(`${capital} >= ${Math.round(f.capital_social_min * 100)}`);
    if (f.capital_social_max !== undefined) w.push(`${capital} <= ${Math.round(f.capital_social_max * 100)}`);
    return { sql: w.length ? w.join(' AND ') : '1', args: a };
  }

  /** Every matching CNPJ, in CNPJ order. */
  companies(f: CompanyFilters): string[] {
    const { sql, args } = this.where(f);
    return this.db
      .prepare(
        `SELECT e.cnpj FROM est.establishments e LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) ` +
          `LEFT JOIN reg.simples s ON s.basico = substr(e.cnpj, 1, 8) WHERE ${sql} ORDER BY e.cnpj`,
      )
      .pluck()
      .all(...args) as string[];
  }

  /** Every matching partner rowid, in order. */
  partners(f: PartnerFilters, key: (stored: string | null) => boolean): number[] {
    const rows = this.db.prepare('SELECT rowid AS id, nome, cnpj_cpf FROM reg.partners ORDER BY rowid').all() as {
      id: number;
      nome: string | null;
      cnpj_cpf: string | null;
    }[];
    const words = f.nome === undefined ? [] : needed(f.nome);
    return rows
      .filter((r) => {
        const name = ` ${normalizeText(r.nome ?? '')} `;
        const ok = words.every((w, i) =>
          i === words.length - 1 && w.length >= 2 ? name.includes(` ${w}`) : name.includes(` ${w} `),
        );
        return ok && (f.cnpj_cpf === undefined || key(r.cnpj_cpf));
      })
      .map((r) => r.id);
  }

  close(): void {
    this.db.close();
  }
}

/** The words of a query a name must hold: the brute-force reading of the rule, `s a` (S/A, S.A.) as a pair. */
function needed(q: string): string[] {
  const all = normalizeText(q)
    .split(' ')
    .filter((w) => w !== '');
  const keep: string[] = [];
  for (let i = 0; i < all.length; i++) {
    if (all[i] === 's' && all[i + 1] === 'a') {
      i++;
      continue;
    }
    if (!NAME_STOP_WORDS.has(all[i])) keep.push(all[i]);
  }
  return [...new Set(keep.length ? keep : all)];
}
