// A fixture month's rows as the dump has them, for the reference ports of the upstream code
// (test/compat/reference/): every field the raw string of its CSV column, not trimmed, not
// converted, read straight from the committed zips. The upstreams read the dump this way, so their
// rules are written against these strings; our answers come from the imported snapshot.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { listZip, openMemberStream } from '../../importer/read/zip.ts';

export type RawRow = readonly string[];

export interface RawMonth {
  /** Estabelecimentos rows (30 fields), Empresas (7), Socios (11), Simples (7). */
  establishments: RawRow[];
  companies: RawRow[];
  partners: RawRow[];
  simples: RawRow[];
  /** Tax-regime rows (ano, cnpj, cnpj_da_scp, forma_de_tributacao, quantidade_de_escrituracoes), each member's header dropped, of the four files in name order (members in zip order). */
  regimes: RawRow[];
  /** The six code tables: code string as published → description. */
  cnaes: Map<string, string>;
  motivos: Map<string, string>;
  municipios: Map<string, string>;
  naturezas: Map<string, string>;
  paises: Map<string, string>;
  qualificacoes: Map<string, string>;
}

/** The bytes of each member of a zip, in zip order (Lucro Presumido.zip holds one CSV per year). */
async function membersBytes(file: string): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const member of await listZip(file)) {
    const chunks: Buffer[] = [];
    for await (const c of openMemberStream(file, member)) chunks.push(c as Buffer);
    out.push(Buffer.concat(chunks));
  }
  return out;
}

async function memberBytes(file: string): Promise<Buffer> {
  return (await membersBytes(file))[0]!;
}

/** The member of one zip as `;`-separated, quoted Latin-1 records (the main files and code tables). */
async function readSemicolon(file: string, decode: Decode): Promise<RawRow[]> {
  return parse(decode(await memberBytes(file)), {
    delimiter: ';',
    relax_column_count: true,
    relax_quotes: true,
  }) as RawRow[];
}

/** Bytes → text as one upstream decodes the dump (Minha Receita: ISO-8859-15; OpenCNPJ: CP1252). */
export type Decode = (bytes: Buffer) => string;

/** Reads every zip of a month folder (Empresas*.zip, …) in name order; Latin-1 unless `decode` says otherwise. */
export async function readRawMonth(dir: string, decode: Decode = (b) => b.toString('latin1')): Promise<RawMonth> {
  const files = fs.readdirSync(dir).sort();
  const kind = async (prefix: string) => {
    const rows: RawRow[] = [];
    for (const f of files.filter((n) => n.startsWith(prefix) && n.endsWith('.zip')))
      rows.push(...(await readSemicolon(path.join(dir, f), decode)));
    return rows;
  };
  const table = async (name: string) => new Map((await kind(name)).map((r) => [r[0]!, r[1]!] as const));
  const regimes: RawRow[] = [];
  for (const f of files.filter((n) => /^(Lucro |Imunes)/.test(n) && n.endsWith('.zip'))) {
    for (const bytes of await membersBytes(path.join(dir, f))) {
      const rows = parse(decode(bytes), { delimiter: ',', relax_column_count: true, bom: true }) as RawRow[];
      regimes.push(...rows.slice(1));
    }
  }
  return {
    establishments: await kind('Estabelecimentos'),
    companies: await kind('Empresas'),
    partners: await kind('Socios'),
    simples: await kind('Simples'),
    regimes,
    cnaes: await table('Cnaes'),
    motivos: await table('Motivos'),
    municipios: await table('Municipios'),
    naturezas: await table('Naturezas'),
    paises: await table('Paises'),
    qualificacoes: await table('Qualificacoes'),
  };
}
