// Writes a synthetic monthly Receita Federal dump in the real format: the 37 zips of the
// monthly folder plus the 4 regime zips, and manifest.json describing what went in
// (counts, injected quirks, duplicates, rejects, CNPJs that exist). Streaming: every zip
// member is written chunk by chunk; nothing holds a whole file.

import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makeCnpj } from '../domain/cnpj.ts';
import { parseMonth } from '../lib/month.ts';
import { buildLookups, type Row2 } from './lookups.ts';
import { Rng, Weighted } from './prng.ts';
import { Quirks, type QuirkName } from './quirks.ts';
import { fixedRecords, SERPRO_CNAES } from './real.ts';
import { dayOf, RowFactory, type Company, type Establishment } from './rows.ts';
import { ZipWriter } from './zip-writer.ts';

export interface DumpOptions {
  companies: number;
  out: string;
  seed?: number;
  /** YYYY-MM, default 2026-09 */
  month?: string;
  /** multiplier of the base quirk rates, default 1; 0 writes a clean dump */
  quirkRate?: number;
}

export interface DumpManifest {
  month: string;
  synthetic: true;
  seed: number;
  files: string[];
  /** Well-formed records written per family (duplicates included, rejects excluded). */
  counts: Record<string, number>;
  /** How many of each quirk were injected, by name. */
  quirks: Record<string, number>;
  duplicates: { establishments: number; companies: number };
  /** ~20 valid CNPJs that exist and carry no quirk, incl. SERPRO, OKBR and an alphanumeric one. */
  sampleCnpjs: string[];
  /** Records with a wrong field count: the only ones an importer should reject. */
  expectedRejects: number;
  /** Rejects per family. */
  rejects: Record<string, number>;
  /** Rows an importer should end up with per family (after rejects and last-wins dedup). */
  expectedRows: Record<string, number>;
  /** One CNPJ or base per quirk, where it can be pinned to a record. */
  examples: Record<string, string>;
  /** The extraction date in the member names (`D` + last year digit + MMDD). */
  extractionDate: string;
  totalZipBytes: number;
}

const SHARDS = 10;
const ESTAB_COLS = 30;
const DEFAULT_MONTH = '2026-09';
// Extraction day within the month used in member names and as "today" for all dates.
const EXTRACTION_DAY = 13;
// Multiplier coprime with 10^8: i → (i·A + B) mod 10^8 is a bijection, so bases never repeat.
const BASE_MULTIPLIER = 48_271_203;

/** A zip holding one CSV member, written line by line. */
class CsvZip {
  readonly zip: ZipWriter;
  records = 0;
  constructor(readonly file: string, dir: string, member: string, mtime: Date) {
    this.zip = new ZipWriter(join(dir, file), { level: 1, mtime });
    this.zip.beginEntry(member);
  }
  row(fields: readonly string[]): void {
    this.zip.write(`"${fields.join('";"')}"\n`);
  }
  raw(text: string): void {
    this.zip.write(text);
  }
  close(): number {
    this.zip.endEntry();
    this.zip.close();
    return this.zip.bytesWritten;
  }
}

/** A plain buffered text file (the per-year Lucro Presumido parts before zipping). */
class TextFile {
  private fd: number;
  private buf = '';
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }
  write(s: string): void {
    this.buf += s;
    if (this.buf.length > 256 * 1024) this.flush();
  }
  private flush(): void {
    if (this.buf) writeSync(this.fd, Buffer.from(this.buf, 'latin1'));
    this.buf = '';
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Latin-1 view of the UTF-8 bytes: written as Latin-1 it yields the UTF-8 byte sequence. */
function utf8Bytes(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

export async function generateDump(opts: DumpOptions): Promise<DumpManifest> {
  const companies = Math.floor(opts.companies);
  if (!(companies >= 1)) throw new Error('companies must be ≥ 1');
  const seed = (opts.seed ?? 1) >>> 0;
  const month = opts.month ?? DEFAULT_MONTH;
  const quirkRate = opts.quirkRate ?? 1;
  const ym = parseMonth(month);
  if (!ym) throw new Error(`month must be YYYY-MM, got ${month}`);
  const { year: y, month: m } = ym;
  const out = opts.out;
  mkdirSync(out, { recursive: true });

  const extractionDay = dayOf(y, m, EXTRACTION_DAY);
  const extractionYmd = `${y}${String(m).padStart(2, '0')}${EXTRACTION_DAY}`;
  const dpart = `D${y % 10}${String(m).padStart(2, '0')}${EXTRACTION_DAY}`;
  const mtime = new Date(Date.UTC(y, m - 1, EXTRACTION_DAY, 3, 0, 0));

  const lk = buildLookups();
  const rng = new Rng(seed, 1);
  const q = new Quirks(seed, quirkRate, companies);
  const f = new RowFactory(rng, lk, extractionDay);
  const fixed = fixedRecords(extractionYmd);
  const zipBytes = new Map<string, number>();
  const files: string[] = [];

  // ---- lookups (tiny; written first) ----
  const lookupFiles: Array<[string, string, Row2[]]> = [
    ['Cnaes.zip', 'CNAECSV', lk.cnaes],
    ['Motivos.zip', 'MOTICSV', lk.motivos],
    ['Municipios.zip', 'MUNICCSV', lk.municipios],
    ['Naturezas.zip', 'NATJUCSV', lk.naturezas],
    ['Paises.zip', 'PAISCSV', lk.paises],
    ['Qualificacoes.zip', 'QUALSCSV', lk.qualificacoes],
  ];
  // Two descriptions carry UTF-8 bytes, like code 18 of the real 2021 QUALSCSV.
  const utf8Targets = new Set<string>();
  if (q.enabled) {
    utf8Targets.add('QUALSCSV:18');
    const cnae = lk.cnaes.find((c) => /ç/.test(c.desc) && !SERPRO_CNAES.includes(c.code) && c.code.startsWith('47'));
    if (cnae) utf8Targets.add(`CNAECSV:${cnae.code}`);
  }
  const counts: Record<string, number> = {};
  for (const [file, kind, rows] of lookupFiles) {
    const z = new CsvZip(file, out, `F.K03200$Z.${dpart}.${kind}`, mtime);
    for (const r of rows) {
      const key = `${kind}:${r.code}`;
      let desc = r.desc;
      if (utf8Targets.has(key)) {
        desc = utf8Bytes(desc);
        q.hit('utf8InLatin1', key);
      }
      z.row([r.code, desc]);
    }
    zipBytes.set(file, z.close());
    files.push(file);
    counts[file.replace('.zip', '').toLowerCase()] = rows.length;
  }

  // ---- the main families ----
  const shardName = (fam: string, i: number) => `${fam}${i}.zip`;
  const member = (i: number, kind: string) => `K3241.K03200Y${i}.${dpart}.${kind}`;
  const emp: CsvZip[] = [];
  const est: CsvZip[] = [];
  const soc: CsvZip[] = [];
  for (let i = 0; i < SHARDS; i++) {
    emp.push(new CsvZip(shardName('Empresas', i), out, member(i, 'EMPRECSV'), mtime));
    est.push(new CsvZip(shardName('Estabelecimentos', i), out, member(i, 'ESTABELE'), mtime));
    soc.push(new CsvZip(shardName('Socios', i), out, member(i, 'SOCIOCSV'), mtime));
  }
  const simples = new CsvZip('Simples.zip', out, `F.K03200$W.SIMPLES.CSV.${dpart}`, mtime);
  // Shard 0 is 3–4× larger than the others, as in the real dumps.
  const shardPick = new Weighted<number>(Array.from({ length: SHARDS }, (_, i) => [i, i === 0 ? 3.5 : 1] as const));

  // regimes: one CSV per zip, except Lucro Presumido (one per year, in a subfolder)
  const REGIME_HEADER = 'ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes';
  const regimeZip = (file: string, memberName: string, eol: string) => {
    const zw = new ZipWriter(join(out, file), { level: 1, mtime });
    zw.beginEntry(memberName);
    zw.write(REGIME_HEADER + eol);
    return { zw, eol, rows: 0 };
  };
  const lucroReal = regimeZip('Lucro Real.zip', 'Lucro Real.csv', '\n');
  const lucroArbitrado = regimeZip('Lucro Arbitrado.zip', 'Lucro Arbitrado.csv', '\r\n');
  const imunes = regimeZip('Imunes e Isentas.zip', 'Imunes e Isentas.csv', '\n');
  const tmpDir = join(out, `.tmp-presumido-${process.pid}`);
  mkdirSync(tmpDir, { recursive: true });
  const presumido = new Map<number, TextFile>();
  let regimeRows = 0;
  const writeRegime = ([ano, cnpj, scp, forma, n]: [number, string, string, string, number]) => {
    const line = `${ano},${cnpj},${scp},${forma},${n}`;
    regimeRows++;
    if (forma === 'LUCRO PRESUMIDO') {
      let t = presumido.get(ano);
      if (!t) {
        t = new TextFile(join(tmpDir, `${ano}.csv`));
        t.write(REGIME_HEADER + '\r\n');
        presumido.set(ano, t);
      }
      t.write(line + '\r\n');
      return;
    }
    const target = forma === 'LUCRO REAL' ? lucroReal : forma === 'LUCRO ARBITRADO' ? lucroArbitrado : imunes;
    target.zw.write(line + target.eol);
    target.rows++;
  };

  const rejects = { empresas: 0, estabelecimentos: 0, socios: 0 };
  const duplicates = { establishments: 0, companies: 0 };
  const sampleCnpjs: string[] = [...fixed.cnpjs];
  const sampleStride = Math.max(1, Math.floor(companies / 17));

  // fixed records first
  for (const [s, row] of fixed.empresas) { emp[s].row(row); emp[s].records++; }
  for (const [s, row] of fixed.estabelecimentos) { est[s].row(row); est[s].records++; }
  for (const [s, row] of fixed.socios) { soc[s].row(row); soc[s].records++; }
  for (const row of fixed.simples) { simples.row(row); simples.records++; }
  for (const r of fixed.regimes) writeRegime(r);

  const reserved = new Set(fixed.bases);
  const baseOffset = (Math.imul(seed, 0x9e3779b1) >>> 0) % 100_000_000;
  let baseCounter = 0;
  const nextNumericBase = (): string => {
    for (;;) {
      const b = String((baseCounter++ * BASE_MULTIPLIER + baseOffset) % 100_000_000).padStart(8, '0');
      if (!reserved.has(b)) return b;
    }
  };
  // Rejected Empresas rows take bases from the far end of the permutation, so the main
  // sequence (and every clean record) is the same whatever the quirk rate.
  let rejectCounter = 99_999_999;
  const rejectBase = (): string => {
    for (;;) {
      const b = String((rejectCounter-- * BASE_MULTIPLIER + baseOffset) % 100_000_000).padStart(8, '0');
      if (!reserved.has(b)) return b;
    }
  };
  const alnumBases = new Set<string>();
  const nextAlnumBase = (): string => {
    const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (;;) {
      let b = '';
      for (let k = 0; k < 8; k++) b += chars[rng.int(36)];
      if (/[A-Z]/.test(b) && !alnumBases.has(b) && !reserved.has(b)) {
        alnumBases.add(b);
        return b;
      }
    }
  };

  /** A copy of `fields` with one field dropped or one added: a record to reject. */
  const mangle = (fields: string[]): string[] => {
    const copy = fields.slice();
    if (q.rng.chance(0.5)) copy.splice(1 + q.rng.int(copy.length - 1), 1);
    else copy.splice(1 + q.rng.int(copy.length - 1), 0, '');
    return copy;
  };

  const fire = (name: QuirkName, example: string, slot?: string) => q.fire(name, example, slot);

  for (let i = 0; i < companies; i++) {
    q.at(i);
    const alnum = f.alnumPossible && rng.chance(0.0003);
    const base = alnum ? nextAlnumBase() : nextNumericBase();
    const c: Company = f.company(i, base, alnum);
    let dirty = false;

    // Empresas
    const e = f.empresaFields(c);
    if (fire('backslashBeforeQuote', base)) { e[1] += '\\'; dirty = true; }
    if (fire('trailingSpaces', base)) { e[1] = q.trailing(e[1]); dirty = true; }
    if (c.capital !== '0,00' && fire('capitalPadded', base)) { e[4] = e[4].padStart(15, '0'); dirty = true; }
    else if (fire('capitalSentinel', base)) { e[4] = '999999999999,00'; dirty = true; }
    const es = shardPick.pick(rng);
    emp[es].row(e);
    emp[es].records++;
    if (fire('duplicateCompanyRow', base)) {
      const s2 = q.rng.int(SHARDS);
      emp[s2].row(e);
      emp[s2].records++;
      duplicates.companies++;
      dirty = true;
    }
    if (fire('wrongFieldCount', `empresas:${base}`, 'wrongFieldCount:empresas')) {
      // a base that appears nowhere else, so rejecting it loses nothing
      const rb = rejectBase();
      emp[es].row(mangle([rb, ...e.slice(1)]));
      rejects.empresas++;
    }

    // Estabelecimentos: head office 0001 plus branches
    const estabs: Establishment[] = [];
    let order = 1;
    for (let b = 0; b <= c.branches; b++) {
      const ord = String(order).padStart(4, '0');
      order += rng.chance(0.9) ? 1 : rng.range(2, 5);
      const est1 = f.establishment(c, ord, b === 0);
      estabs.push(est1);
      const x = est1.fields;
      const id = est1.cnpj;
      if (x[4].includes(' ') && fire('rawNewlineInField', id)) { x[4] = q.rawNewline(x[4]); dirty = true; }
      if (x[4] && fire('backslashBeforeQuote', id)) { x[4] += '\\'; dirty = true; }
      if (x[4] && fire('trailingSpaces', id)) { x[4] = q.trailing(x[4]); dirty = true; }
      if (fire('semicolonInComplemento', id)) { x[16] = q.semicolons(x[16]); dirty = true; }
      if (x[16] && fire('nulInComplemento', id)) { x[16] = q.nuls(x[16]); dirty = true; }
      if (fire('repeatedSpaces', id)) { x[14] = q.doubleSpace(x[14]); dirty = true; }
      if (fire('unpaddedSituacao', id)) { x[5] = String(Number(x[5])); dirty = true; }
      if ((x[5] === '04' || x[5] === '08') && fire('orphanMotivo32', id)) { x[7] = '32'; dirty = true; }
      else if (x[7] === '00' && fire('unpaddedMotivo', id)) { x[7] = '0'; dirty = true; }
      if (fire('orphanPais994', id)) { x[9] = '994'; dirty = true; }
      if (fire('dateAllZeros', id)) { x[6] = '00000000'; dirty = true; }
      else if (fire('dateZero', id)) { x[6] = '0'; dirty = true; }
      for (const kind of ['dateSevenDigits', 'dateImpossible', 'dateAncientYear'] as const) {
        if (fire(kind, id)) { x[10] = q.badDate(kind, x[10]); dirty = true; break; }
      }
      if (x[18].startsWith('0') && fire('cepSevenDigits', id)) { x[18] = x[18].slice(1); dirty = true; }

      const s = shardPick.pick(rng);
      est[s].row(x);
      est[s].records++;
      if (s < SHARDS - 1 && fire('duplicateEstablishmentKey', id)) {
        // The same key again in a later shard with a newer phone and e-mail: last wins.
        const later = s + 1 + q.rng.int(SHARDS - 1 - s);
        const y2 = x.slice();
        y2[21] = y2[21] || '11';
        y2[22] = `9${q.rng.digits(8)}`;
        y2[27] = `atualizado${q.rng.range(1, 999)}@gmail.com`;
        est[later].row(y2);
        est[later].records++;
        duplicates.establishments++;
        dirty = true;
      }
      if (fire('wrongFieldCount', `estabelecimentos:${id}`, 'wrongFieldCount:estabelecimentos')) {
        // an order the company does not otherwise have
        const badOrder = String(9000 + q.rng.int(1000));
        const y3 = x.slice(0, ESTAB_COLS);
        y3[1] = badOrder;
        y3[2] = makeCnpj(c.base, badOrder).slice(12);
        est[s].row(mangle(y3));
        rejects.estabelecimentos++;
      }
    }

    // Sócios (all of a company's partners in one shard)
    const partners = f.partners(c);
    if (partners.length) {
      const s = shardPick.pick(rng);
      for (const p of partners) {
        if (fire('orphanQualificacao36', base)) { p[4] = '36'; dirty = true; }
        soc[s].row(p);
        soc[s].records++;
        if (fire('wrongFieldCount', `socios:${base}`, 'wrongFieldCount:socios')) {
          soc[s].row(mangle(p));
          rejects.socios++;
        }
      }
    }

    if (c.simples) {
      simples.row(c.simples);
      simples.records++;
    }
    for (const r of f.regimes(c, estabs)) writeRegime(r);

    if (!dirty && i % sampleStride === Math.floor(sampleStride / 2) && sampleCnpjs.length < 20) sampleCnpjs.push(estabs[0].cnpj);
  }

  // ---- close everything ----
  const closeShard = (z: CsvZip, family: string) => {
    // A blank last line was seen in Estabelecimentos7 (Feb 2025); always there when quirks are on.
    if (q.enabled && (z.file === 'Estabelecimentos7.zip' || q.rng.chance(0.03 * quirkRate))) {
      z.raw('\n');
      q.hit('trailingBlankLine', z.file);
    }
    counts[family] = (counts[family] ?? 0) + z.records;
    zipBytes.set(z.file, z.close());
    files.push(z.file);
  };
  for (const z of emp) closeShard(z, 'empresas');
  for (const z of est) closeShard(z, 'estabelecimentos');
  for (const z of soc) closeShard(z, 'socios');
  closeShard(simples, 'simples');

  for (const [file, r] of [['Lucro Real.zip', lucroReal], ['Lucro Arbitrado.zip', lucroArbitrado], ['Imunes e Isentas.zip', imunes]] as const) {
    r.zw.endEntry();
    r.zw.close();
    zipBytes.set(file, r.zw.bytesWritten);
    files.push(file);
  }
  const pz = new ZipWriter(join(out, 'Lucro Presumido.zip'), { level: 1, mtime });
  for (const ano of [...presumido.keys()].sort((a, b) => a - b)) {
    const t = presumido.get(ano)!;
    t.close();
    pz.addFile(`Lucro Presumido/Lucro Presumido ${ano}.csv`, t.path);
  }
  pz.close();
  zipBytes.set('Lucro Presumido.zip', pz.bytesWritten);
  files.push('Lucro Presumido.zip');
  rmSync(tmpDir, { recursive: true, force: true });
  counts.regimes = regimeRows;

  const expectedRejects = rejects.empresas + rejects.estabelecimentos + rejects.socios;
  const manifest: DumpManifest = {
    month,
    synthetic: true,
    seed,
    files: files.sort(),
    counts,
    quirks: { ...q.counts },
    duplicates,
    sampleCnpjs,
    expectedRejects,
    rejects,
    expectedRows: {
      empresas: counts.empresas - duplicates.companies,
      estabelecimentos: counts.estabelecimentos - duplicates.establishments,
      socios: counts.socios,
      simples: counts.simples,
      regimes: counts.regimes,
    },
    examples: { ...q.examples },
    extractionDate: extractionYmd,
    totalZipBytes: [...zipBytes.values()].reduce((a, b) => a + b, 0),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
