// A second, independent implementation of OpenCNPJ's answer, written from the upstream code
// (Hitmasu/OpenCNPJ @ ee753a8ab5e06c5acf65d8ce936e36c39ef24cc3) and run on the dump's raw rows, for
// the golden test: it imports nothing from src/domain/compat and reads no snapshot. Each rule names
// the upstream file it follows:
// - src/ETL/Modules/Receita/Processors/ParquetProcessor.cs BuildCsvSourceRelationSql: DuckDB
//   read_csv(sep=';', header=false, encoding='CP1252', ignore_errors=true, every column VARCHAR):
//   a field read as "" is NULL (DuckDB's allow_quoted_nulls), a record with the wrong number of
//   fields is skipped, nothing is trimmed;
// - TableSchemas.cs: the column names of each file;
// - ShardQueryBuilder.cs BuildJsonQueryForCnpj: establishment LEFT JOIN empresa, simples (on
//   cnpj_basico), natureza, municipio (on the raw code strings), the partners' aggregate;
// - JsonProjection.cs Fields and QsaProjection.cs BuildCte: each field's rule, in output order;
// - src/Worker/src/storage.ts parseExactNdjsonRecord + http.ts jsonOk: JSON.parse of that line,
//   answered as JSON.stringify (so the key order is the projection's, the spacing compact).
import { WINDOWS_1252_C1 } from '../../../importer/read/decode.ts';
import { readRawMonth, type RawRow } from '../raw-month.ts';

/** DuckDB's encoding='CP1252': Latin-1 with 0x80–0x9F as Windows-1252 (Node's decoder of that label is Latin-1). */
export function cp1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009F]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}

type V = string | null;

/** read_csv with all-VARCHAR columns: "" is NULL; a record of another width is skipped (ignore_errors). */
function table(rows: readonly RawRow[], width: number): V[][] {
  return rows.filter((r) => r.length === width).map((r) => r.map((f) => (f === '' ? null : f)));
}

const coalesce = (v: V): string => v ?? '';

/** DuckDB lpad: pads on the left, or cuts to `n` characters when longer. */
const lpad = (v: string, n: number): string => (v.length >= n ? v.slice(0, n) : '0'.repeat(n - v.length) + v);

/** `CASE WHEN x ~ '^[0-9]{8}$' THEN YYYY-MM-DD ELSE COALESCE(x, '') END` (JsonProjection.cs, QsaProjection.cs). */
const date = (v: V): string =>
  v !== null && /^[0-9]{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}` : coalesce(v);

/**
 * `CASE key WHEN '…' THEN '…' … ELSE v END` over exact strings; NULL when nothing matches and `v`
 * is NULL (the caller adds upstream's COALESCE(…, '') where it has one).
 */
function cases(map: Record<string, string>, v: V, key: V = v): string | null {
  if (key !== null && Object.hasOwn(map, key)) return map[key]!;
  return v;
}

const SITUACAO: Record<string, string> = {
  '01': 'Nula',
  '02': 'Ativa',
  '03': 'Suspensa',
  '04': 'Inapta',
  '08': 'Baixada',
};
const MATRIZ: Record<string, string> = { '1': 'Matriz', '2': 'Filial' };
const PORTE: Record<string, string> = {
  '00': 'Não informado',
  '01': 'Microempresa (ME)',
  '03': 'Empresa de Pequeno Porte (EPP)',
  '05': 'Demais',
};
const IDENTIFICADOR: Record<string, string> = { '1': 'Pessoa Jurídica', '2': 'Pessoa Física', '3': 'Estrangeiro' };
const FAIXA: Record<string, string> = {
  '0': 'Não se aplica',
  '1': '0 a 12 anos',
  '2': '13 a 20 anos',
  '3': '21 a 30 anos',
  '4': '31 a 40 anos',
  '5': '41 a 50 anos',
  '6': '51 a 60 anos',
  '7': '61 a 70 anos',
  '8': '71 a 80 anos',
  '9': 'Mais de 80 anos',
};

function groupBy(rows: V[][]): Map<string, V[][]> {
  const m = new Map<string, V[][]>();
  for (const r of rows) {
    if (r[0] === null) continue;
    const list = m.get(r[0]);
    if (list) list.push(r);
    else m.set(r[0], [r]);
  }
  return m;
}

/** A code table as DuckDB joins it: the raw code string → description (NULL description → ""). */
function codes(rows: Map<string, string>): Map<string, string> {
  return new Map([...rows].filter(([k]) => k !== '').map(([k, d]) => [k, d]));
}

/** `LEFT JOIN t ON x = t.codigo` then `COALESCE(t.descricao, '')`. */
const join = (t: Map<string, string>, v: V): string => (v === null ? '' : (t.get(v) ?? ''));

export interface ReferenceAnswer {
  /** The answer's JSON text. */
  body: string;
  /** The raw rows it was built from (for the test's exceptions). */
  establishment: readonly V[];
  company: readonly V[] | null;
  simples: readonly V[] | null;
  partners: readonly (readonly V[])[];
}

/**
 * Every answer upstream's ETL writes for a month folder, per CNPJ in output order: one per
 * establishment row × company row × Simples row of its base (more than one only when the dump
 * repeats a key; upstream then serves whichever line its binary index search meets).
 */
export async function openCnpjReference(dir: string): Promise<Map<string, ReferenceAnswer[]>> {
  const raw = await readRawMonth(dir, cp1252);
  const companies = groupBy(table(raw.companies, 7));
  const simples = groupBy(table(raw.simples, 7));
  const partners = groupBy(table(raw.partners, 11));
  const naturezas = codes(raw.naturezas);
  const municipios = codes(raw.municipios);
  const qualificacoes = codes(raw.qualificacoes);

  // QsaProjection.cs: array_agg(struct_pack(…)) GROUP BY cnpj_basico, no ORDER BY (scan order).
  const qsa = (rows: readonly V[][]) =>
    rows.map((s) => ({
      nome_socio: coalesce(s[2]!),
      cnpj_cpf_socio: coalesce(s[3]!),
      qualificacao_socio: join(qualificacoes, s[4]!),
      data_entrada_sociedade: date(s[5]!),
      identificador_socio: coalesce(cases(IDENTIFICADOR, s[1]!)),
      faixa_etaria: coalesce(cases(FAIXA, s[10]!)),
    }));

  const out = new Map<string, ReferenceAnswer[]>();
  for (const e of table(raw.establishments, 30)) {
    if (e[0] === null || e[1] === null || e[2] === null) continue;
    const cnpj = e[0] + e[1] + e[2];
    const socios = partners.get(e[0]) ?? [];
    for (const emp of companies.get(e[0]) ?? [null]) {
      for (const s of simples.get(e[0]) ?? [null]) {
        const phones = [];
        for (const [ddd, numero, isFax] of [
          [e[21], e[22], false],
          [e[23], e[24], false],
          [e[25], e[26], true],
        ] as const) {
          if (ddd !== null || numero !== null)
            phones.push({ ddd: coalesce(ddd), numero: coalesce(numero), is_fax: isFax });
        }
        // JsonProjection.cs, field by field in its order.
        const record = {
          cnpj,
          razao_social: coalesce(emp?.[1] ?? null),
          nome_fantasia: coalesce(e[4]!),
          situacao_cadastral: cases(SITUACAO, e[5]!, e[5] === null ? null : lpad(e[5], 2)),
          data_situacao_cadastral: date(e[6]!),
          matriz_filial: cases(MATRIZ, e[3]!),
          data_inicio_atividade: date(e[10]!),
          cnae_principal: coalesce(e[11]!),
          cnaes_secundarios: e[12] !== null && e[12] !== '' ? e[12].split(',') : [],
          natureza_juridica: join(naturezas, emp?.[2] ?? null),
          tipo_logradouro: coalesce(e[13]!),
          logradouro: coalesce(e[14]!),
          numero: coalesce(e[15]!),
          complemento: coalesce(e[16]!),
          bairro: coalesce(e[17]!),
          cep: coalesce(e[18]!),
          uf: coalesce(e[19]!),
          municipio: join(municipios, e[20]!),
          email: coalesce(e[27]!),
          telefones: phones,
          capital_social: coalesce(emp?.[4] ?? null),
          porte_empresa: coalesce(cases(PORTE, emp?.[5] ?? null)),
          opcao_simples: coalesce(s?.[1] ?? null),
          data_opcao_simples: date(s?.[2] ?? null),
          opcao_mei: coalesce(s?.[4] ?? null),
          data_opcao_mei: date(s?.[5] ?? null),
          QSA: qsa(socios),
        };
        const answer = { body: JSON.stringify(record), establishment: e, company: emp, simples: s, partners: socios };
        const list = out.get(cnpj);
        if (list) list.push(answer);
        else out.set(cnpj, [answer]);
      }
    }
  }
  return out;
}
