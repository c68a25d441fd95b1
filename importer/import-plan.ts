// Which zip member is which table: by the member's name pattern (the RFB mainframe names, or the
// short names some mirrors use), never by position. Also: what a standard month would hold and is
// missing, and which month the files say they are. A month's folder downloaded as one zip counts
// as that folder: its zips are planned exactly as the files of a folder would be.
import fs from 'node:fs';
import path from 'node:path';
import { isMonth } from '../src/lib/month.ts';
import type { CodeTable } from '../src/storage/snapshots/tables.ts';
import { folderDownload, listZip, zipName, type ZipInput, type ZipMember } from './read/zip.ts';

export type SourceKind = 'establishments' | 'companies' | 'simples' | 'partners' | 'regimes' | CodeTable;

export interface SourceFile {
  /** The member's zip: a file, or a zip inside a folder download (serialisable either way). */
  zip: ZipInput;
  member: ZipMember;
  kind: SourceKind;
  /** The extraction date in the member's name (`D60913` → `2026-09-13`), when it has one. */
  extracted: string | null;
}

export interface ImportPlan {
  sources: SourceFile[];
  /** Standard files of a month that were not given. */
  missing: string[];
  /** Zips given that hold nothing we know. */
  unknown: string[];
  /** Month read from the folder's name (or a folder download's), else the members' extraction dates, if any. */
  detectedMonth: string | null;
  /** The extraction date most members carry (the month's), if any carries one. */
  extracted: string | null;
  compressedBytes: number;
}

const MEMBER_PATTERNS: [RegExp, SourceKind][] = [
  [/ESTABELE|^estabelecimentos?\d*$/i, 'establishments'],
  [/EMPRECSV|^empresas?\d*$/i, 'companies'],
  [/SOCIOCSV|^socios?\d*$/i, 'partners'],
  [/SIMPLES|^simples$/i, 'simples'],
  [/CNAECSV|^cnaes?$/i, 'cnaes'],
  [/MOTICSV|^motivos?$/i, 'motivos'],
  [/MUNICCSV|^municipios?$/i, 'municipios'],
  [/NATJUCSV|^naturezas?$/i, 'naturezas'],
  [/PAISCSV|^paises$/i, 'paises'],
  [/QUALSCSV|^qualificacoes$/i, 'qualificacoes'],
  [/(lucro[ _-]?(real|presumido|arbitrado)|imunes).*\.csv$/i, 'regimes'],
];

export function kindOfMember(name: string): SourceKind | null {
  const base = path.posix.basename(name);
  for (const [re, kind] of MEMBER_PATTERNS) if (re.test(base)) return kind;
  return null;
}

export const REGIME_ZIPS: [string, RegExp][] = [
  ['Lucro Real.zip', /lucro[ _-]?real/i],
  ['Lucro Presumido.zip', /lucro[ _-]?presumido/i],
  ['Lucro Arbitrado.zip', /lucro[ _-]?arbitrado/i],
  ['Imunes e Isentas.zip', /imunes/i],
];

/** The 37 zips of a complete month in the Receita's monthly folder (§1.2 of the layout notes). */
export const MONTHLY_ZIPS: string[] = [
  ...['Empresas', 'Estabelecimentos', 'Socios'].flatMap((f) => Array.from({ length: 10 }, (_, i) => `${f}${i}.zip`)),
  ...['Simples', 'Cnaes', 'Motivos', 'Municipios', 'Naturezas', 'Paises', 'Qualificacoes'].map((f) => `${f}.zip`),
];

/** What a complete import is given: the monthly zips and the tax-regime ones (published apart). */
export const STANDARD_ZIPS: string[] = [...MONTHLY_ZIPS, ...REGIME_ZIPS.map(([name]) => name)];

/** Expands folders (non-recursive) into their zips, keeps zip paths, sorted naturally. */
export function expandInputs(inputs: string[]): string[] {
  const zips: string[] = [];
  for (const input of inputs) {
    let st: fs.Stats;
    try {
      st = fs.statSync(input);
    } catch {
      throw new Error(`${input}: file or folder not found`);
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(input)) if (/\.zip$/i.test(name)) zips.push(path.join(input, name));
    } else {
      zips.push(input);
    }
  }
  const collator = new Intl.Collator('en', { numeric: true });
  return [...new Set(zips.map((z) => path.resolve(z)))].sort((a, b) =>
    collator.compare(path.basename(a), path.basename(b)),
  );
}

/**
 * `D60913` in a member name → its extraction date, `2026-09-13`. Any case: some mirrors and tools
 * lower-case the names (quirk 23).
 */
export function extractionDate(name: string, now = new Date()): string | null {
  const m = /\.D(\d)(\d\d)(\d\d)(?:\.|$)/i.exec(name);
  if (!m) return null;
  const month = +m[2];
  const day = +m[3];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  // One digit of year: take the most recent year ending in it that is not in the future.
  let year = now.getUTCFullYear() - ((((now.getUTCFullYear() - +m[1]) % 10) + 10) % 10);
  if (year > now.getUTCFullYear()) year -= 10;
  return `${year}-${m[2]}-${m[3]}`;
}

/** The value most often seen (the first one seen among equals), or null. */
function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)!) best = v;
  return best;
}

export async function planImport(inputs: string[]): Promise<ImportPlan> {
  const files = expandInputs(inputs);
  if (files.length === 0) throw new Error(`no .zip file found in ${inputs.join(', ')}`);
  const listed: { zip: ZipInput; members: ZipMember[] }[] = [];
  const downloadMonths: string[] = [];
  for (const file of files) {
    const members = await listZip(file);
    const download = await folderDownload(file, members);
    if (!download) {
      listed.push({ zip: file, members });
      continue;
    }
    // The download is named after its folder (`2026-09.zip`), which is also its members' prefix.
    const month = [path.basename(file).replace(/\.zip$/i, ''), path.posix.basename(download.folder)].find(isMonth);
    if (month) downloadMonths.push(month);
    for (const inner of download.zips) listed.push({ zip: inner, members: await listZip(inner) });
  }
  // Natural name order across files and the zips inside downloads, as one folder would be read.
  const collator = new Intl.Collator('en', { numeric: true });
  listed.sort((a, b) => collator.compare(zipName(a.zip), zipName(b.zip)));

  const sources: SourceFile[] = [];
  const unknown: string[] = [];
  for (const { zip, members } of listed) {
    let known = 0;
    for (const member of members) {
      const kind = kindOfMember(member.name);
      if (!kind) continue;
      known++;
      sources.push({ zip, member, kind, extracted: extractionDate(member.name) });
    }
    if (!known) unknown.push(zipName(zip));
  }
  const given = new Set(listed.map(({ zip }) => zipName(zip).toLowerCase()));
  const missing = STANDARD_ZIPS.filter((name) => {
    if (given.has(name.toLowerCase())) return false;
    const regime = REGIME_ZIPS.find(([n]) => n === name);
    return !(regime && [...given].some((g) => regime[1].test(g)));
  });
  const folderMonth = inputs.map((i) => path.basename(path.resolve(i))).find(isMonth) ?? downloadMonths[0] ?? null;
  const extracted = mostCommon(sources.map((s) => s.extracted).filter((d): d is string => d !== null));
  const fileMonth = mostCommon(
    sources.map((s) => s.extracted?.slice(0, 7)).filter((m): m is string => m !== undefined),
  );
  return {
    sources,
    missing,
    unknown,
    detectedMonth: folderMonth ?? fileMonth,
    extracted,
    compressedBytes: sources.reduce((s, f) => s + f.member.compressedSize, 0),
  };
}
