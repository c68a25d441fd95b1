// Golden test of the Minha Receita and BrasilAPI shapes on both fixture months: every
// establishment's answer, imported through our importer and served from the snapshot, against a
// second implementation of Minha Receita's transform run on the same raw rows
// (test/compat/reference/minha-receita.ts), whose object goes through PostgreSQL jsonb's output
// rules (Minha Receita) and then JSON.parse + JSON.stringify (BrasilAPI). Every difference must be
// one of the named exceptions below, where it occurs; after putting our value in at each excused
// place, the two texts must be equal byte for byte. Then the committed answers of
// test/fixtures/compat-golden/{minha-receita,brasilapi}/ must come out byte for byte.
//
// The reference is built as the upstream's `--no-privacy` output: e-mail and trade name as
// published, which is what this project serves (issue #30, docs/compat.md §2.5).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { runImport } from '../../../importer/run.ts';
import { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { brasilApi } from '../../../src/domain/compat/brasilapi.ts';
import { ibgeOfSiafi } from '../../../src/domain/compat/ibge.ts';
import { minhaReceita } from '../../../src/domain/compat/minha-receita.ts';
import type { CompatContext } from '../../../src/domain/compat/rows.ts';
import {
  isAbort,
  jsonbOut,
  minhaReceitaReference,
  type MinhaReceitaReference,
  type Value,
} from '../../compat/reference/minha-receita.ts';
import { DEMO_400, RECEITA_MINI } from '../../fixtures/index.ts';
import { tempDataDir } from '../../server/helpers.ts';
import { compatRowsOf } from '../../../src/domain/compat/rows.ts';

const GOLDEN = fileURLToDir('../../fixtures/compat-golden');
function fileURLToDir(rel: string): string {
  return new URL(rel, import.meta.url).pathname;
}

/** A difference kept on purpose: where it applies (one field of one answer) and why. */
interface Exception {
  readonly name: string;
  readonly why: string;
  applies(ours: unknown, theirs: Value): boolean;
}

const EXCEPTIONS: readonly Exception[] = [
  {
    name: 'whitespace',
    why:
      'our snapshot trims text and turns every run of whitespace into one space (docs/receita-dump.md §3 `text`); ' +
      'the upstream only collapses runs of two or more (transform/archive.go), so a single edge space or a lone line feed stays',
    applies: (ours, theirs) =>
      typeof theirs === 'string' && typeof ours === 'string' && ours === theirs.replace(/\s+/g, ' ').trim(),
  },
  {
    name: 'unparseable-date',
    why:
      'a date time.Parse refuses (7 digits, impossible day) stops the upstream transform (transform/cast.go toDate); ' +
      'our importer stores NULL (docs/receita-dump.md quirk 7) and the answer shows null',
    applies: (ours, theirs) => isAbort(theirs) && theirs.abort.startsWith('time.Parse') && ours === null,
  },
  {
    name: 'implausible-year',
    why:
      'time.Parse takes any 4-digit year (0202-01-13); our importer stores NULL for a year outside 1800 … next year ' +
      '(docs/receita-dump.md §3 `date`, quirk 7)',
    applies: (ours, theirs) =>
      typeof theirs === 'string' &&
      /^\d{4}-\d{2}-\d{2}$/.test(theirs) &&
      Number(theirs.slice(0, 4)) < 1800 &&
      ours === null,
  },
  {
    name: 'utf8-repair',
    why:
      'UTF-8 sequences inside the Latin-1 text (SecretÃ¡rio) are decoded back by our importer (docs/receita-dump.md quirk 11); ' +
      'the upstream decodes every byte as ISO-8859-15 (transform/archive.go) and serves the mojibake',
    applies: (ours, theirs) => {
      if (typeof theirs !== 'string' || typeof ours !== 'string') return false;
      let s = theirs;
      for (let round = 0; round < 2; round++) {
        s = Buffer.from(s, 'latin1').toString('utf8');
        if (s.includes('\ufffd')) return false;
        if (s === ours) return true;
      }
      return false;
    },
  },
  {
    name: 'cep-leading-zero',
    why: 'a 7-digit CEP is served padded to 8, as this project serves it (docs/receita-dump.md quirk 14); the upstream passes the raw 7 digits',
    applies: (ours, theirs) => typeof theirs === 'string' && /^\d{7}$/.test(theirs) && ours === `0${theirs}`,
  },
];

/** Upstream stops (reference `stops`) this month may show, by kind, with why we go on. */
const STOPS: readonly { match: RegExp; why: string }[] = [
  {
    match: /record with \d+ fields$/,
    why: 'encoding/csv refuses a record with another field count and the transform stops; our importer quarantines the record (docs/receita-dump.md quirk 6), so neither side serves it',
  },
  {
    match: /^CNPJ twice/,
    why: 'the same CNPJ in two shards makes the upstream COPY fail on its unique index; we keep the row read last (quirk 8), which the reference also used',
  },
];

/** Where each exception applies, per month: exactly there (a new place fails the test until named here). */
const EXPECTED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'receita-mini': {},
  'demo-400': {
    'utf8-repair': [
      '00370465000134.qsa[0].qualificacao_socio',
      '18198887000130.qsa[0].qualificacao_socio',
      '41591367000104.qsa[1].qualificacao_socio',
      '41591367000104.qsa[2].qualificacao_socio',
      '83758060000103.qsa[1].qualificacao_socio',
    ],
    'cep-leading-zero': ['14741293000172.cep', '27220539000102.cep'],
    'implausible-year': ['18198887000130.data_inicio_atividade'],
    whitespace: ['51964149000121.nome_fantasia', '99830013000155.razao_social'],
    'unparseable-date': ['55691969000148.data_inicio_atividade', '65659412000183.data_inicio_atividade'],
  },
};

interface Month {
  name: string;
  dir: string;
  dataDir?: string;
  registry?: CompanyRegistry;
  reference?: MinhaReceitaReference;
}
const MONTHS: Month[] = [
  { name: 'receita-mini', dir: RECEITA_MINI },
  { name: 'demo-400', dir: DEMO_400 },
];

before(async () => {
  for (const m of MONTHS) {
    m.dataDir = tempDataDir();
    await runImport({ dataDir: m.dataDir, inputs: [m.dir], month: '2026-09' });
    m.registry = new CompanyRegistry({ dataDir: m.dataDir, contacts: () => [], pollMs: 0 });
    m.reference = await minhaReceitaReference(m.dir, ibgeOfSiafi);
  }
});
after(() => {
  for (const m of MONTHS) m.registry?.close();
});

function answers(m: Month, cnpj: string) {
  const found = compatRowsOf(m.registry!, cnpj);
  if (found === null) return null;
  const ctx: CompatContext = { codeTables: found.snapshot.codeTables, info: found.snapshot.info, ibge: ibgeOfSiafi };
  return { mr: minhaReceita.found(found.rows, ctx).body, brasil: brasilApi.found(found.rows, ctx).body };
}

/** Our snapshot's establishments (the registry has no listing of all of them). */
function ourCnpjs(dataDir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name === 'establishments.db') files.push(path.join(d, e.name));
  };
  walk(dataDir);
  assert.equal(files.length, 1, 'one snapshot');
  const db = new Database(files[0]!, { readonly: true });
  try {
    return (db.prepare('SELECT cnpj FROM establishments ORDER BY cnpj').pluck().all() as string[]).slice();
  } finally {
    db.close();
  }
}

/**
 * Walks the reference value and ours together; returns the reference with our value put in at
 * each excused difference, and the differences no exception explains.
 */
function reconcile(
  theirs: Value,
  ours: unknown,
  where: string,
  used: Map<string, string[]>,
  unexplained: string[],
): Value {
  if (Array.isArray(theirs)) {
    if (!Array.isArray(ours) || ours.length !== theirs.length) {
      unexplained.push(`${where}: ${JSON.stringify(ours)} ≠ upstream ${JSON.stringify(theirs)}`);
      return theirs;
    }
    return theirs.map((t, i) => reconcile(t, ours[i], `${where}[${i}]`, used, unexplained));
  }
  if (theirs !== null && typeof theirs === 'object' && !isAbort(theirs) && !('numberText' in theirs)) {
    const o = ours as Record<string, unknown>;
    assert.deepEqual(Object.keys(o).sort(), Object.keys(theirs).sort(), `${where}: the same fields`);
    const out: { [k: string]: Value } = {};
    for (const k of Object.keys(theirs)) out[k] = reconcile(theirs[k]!, o[k], `${where}.${k}`, used, unexplained);
    return out;
  }
  const same =
    theirs !== null && typeof theirs === 'object' && 'numberText' in theirs
      ? ours === Number(theirs.numberText)
      : ours === theirs;
  if (same) return theirs;
  const e = EXCEPTIONS.find((x) => x.applies(ours, theirs));
  if (e === undefined) {
    unexplained.push(`${where}: ours ${JSON.stringify(ours)} ≠ upstream ${JSON.stringify(theirs)}`);
    return theirs;
  }
  used.set(e.name, [...(used.get(e.name) ?? []), where]);
  return ours as Value;
}

for (const m of MONTHS) {
  describe(`Minha Receita and BrasilAPI against the upstream's rules: ${m.name}`, () => {
    test('every establishment, field by field, then byte for byte', () => {
      const ref = m.reference!;
      for (const s of ref.stops)
        assert.ok(
          STOPS.some((k) => k.match.test(s.reason)),
          `an upstream stop with no named reason: ${s.cnpj} ${s.reason}`,
        );
      const ours = ourCnpjs(m.dataDir!);
      const theirs = [...ref.companies.keys()].sort();
      assert.deepEqual(ours, theirs, 'the same establishments');

      const used = new Map<string, string[]>();
      const unexplained: string[] = [];
      for (const cnpj of theirs) {
        const a = answers(m, cnpj);
        assert.ok(a, cnpj);
        const reconciled = reconcile(ref.companies.get(cnpj)!, JSON.parse(a.mr), cnpj, used, unexplained);
        if (unexplained.length > 0) continue;
        const upstreamText = jsonbOut(reconciled);
        assert.equal(a.mr, upstreamText, `${cnpj}: Minha Receita's text`);
        // BrasilAPI: axios parses Minha Receita's text, Next.js's res.json writes JSON.stringify of it.
        assert.equal(a.brasil, JSON.stringify(JSON.parse(upstreamText)), `${cnpj}: BrasilAPI's text`);
      }
      assert.deepEqual(unexplained, [], 'differences no named exception explains');
      assert.deepEqual(Object.fromEntries(used), EXPECTED[m.name], 'each exception where this month has its quirk');
    });
  });
}

/** The committed answers: CNPJ → what each shows (read by hand against the upstream's rules). */
const COMMITTED: readonly { month: string; cnpj: string; shows: string }[] = [
  {
    month: 'receita-mini',
    cnpj: '33683111000280',
    shows:
      "SERPRO's branch: capital 1061004829,23 as float32, 5 secondary CNAEs, 6 partners, Simples dates, a regime year",
  },
  { month: 'demo-400', cnpj: '03287607000192', shows: 'a head office; a PJ partner; regimes; 5 secondary CNAEs' },
  { month: 'demo-400', cnpj: '96642645000105', shows: 'the company abroad: uf EX, país 628, no município' },
  { month: 'demo-400', cnpj: '93185051000116', shows: 'an MEI with its dates; 7 secondary CNAEs' },
  {
    month: 'demo-400',
    cnpj: '13119937000122',
    shows: 'a PF partner with a legal representative, and a foreign partner',
  },
  {
    month: 'demo-400',
    cnpj: '69927684000178',
    shows: 'regimes over 7 years, LUCRO PRESUMIDO then LUCRO REAL, a year twice',
  },
  { month: 'demo-400', cnpj: '38809338000161', shows: 'a regime row with an SCP (masked CNPJ)' },
];

for (const c of COMMITTED) {
  test(`committed answers: ${c.cnpj} (${c.shows})`, () => {
    const m = MONTHS.find((x) => x.name === c.month)!;
    const a = answers(m, c.cnpj);
    assert.ok(a, c.cnpj);
    for (const [shape, body] of [
      ['minha-receita', a.mr],
      ['brasilapi', a.brasil],
    ] as const) {
      const file = path.join(GOLDEN, shape, `${c.cnpj}.json`);
      if (process.env.COMPAT_GOLDEN_WRITE === '1') {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, body);
      }
      assert.equal(body, fs.readFileSync(file, 'utf8'), `${shape}/${c.cnpj}.json`);
    }
  });
}

// The upstream's own answer for Open Knowledge Brasil: testdata/response.json of
// cuducos/minha-receita @ e04fefb7 (MIT, copied as is; a hand-kept mock for its API tests, see
// docs/compat.md §2.6). demo-400 carries the real Empresas row of 19131243 (and the month's real
// code tables) but a made-up establishment, partner and no regimes; those fields are named below.
const UPSTREAM_OKBR = path.join(GOLDEN, 'minha-receita-upstream', '19131243000197.json');
const OKBR_EXCEPTIONS: Readonly<Record<string, string>> = {
  descricao_porte: 'stale: no field of the current Company struct (transform/company.go) writes it',
  email: 'privacy: the public build writes null; this project serves the e-mail (issue #30)',
  nome_fantasia: 'demo-400 made up the establishment row',
  descricao_tipo_de_logradouro: 'demo-400 made up the establishment row',
  logradouro: 'demo-400 made up the establishment row',
  numero: 'demo-400 made up the establishment row',
  complemento: 'demo-400 made up the establishment row',
  bairro: 'demo-400 made up the establishment row',
  cep: 'demo-400 made up the establishment row',
  ddd_telefone_1: 'demo-400 made up the establishment row',
  data_inicio_atividade: 'demo-400 made up the establishment row',
  data_situacao_cadastral: 'demo-400 made up the establishment row',
  cnaes_secundarios: 'demo-400 made up the establishment row',
  qsa: 'demo-400 made up the partner row',
  regime_tributario: 'demo-400 has no regime rows for 19131243',
};

describe("Minha Receita's own testdata/response.json (Open Knowledge Brasil)", () => {
  const text = fs.readFileSync(UPSTREAM_OKBR, 'utf8');
  const upstream = JSON.parse(text) as Record<string, unknown>;

  test('our jsonb writer gives its text back byte for byte (order, spacing, escaping)', async () => {
    const { jsonbText } = await import('../../../src/domain/compat/jsonb-text.ts');
    assert.equal(jsonbText(upstream), text);
  });

  test('field by field: the same keys in the same order, the same types, the same values but the named ones', () => {
    const a = answers(
      MONTHS.find((m) => m.name === 'demo-400')!,
      '19131243000197',
    );
    assert.ok(a);
    const ours = JSON.parse(a.mr) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(ours),
      Object.keys(upstream).filter((k) => k !== 'descricao_porte'),
    );
    const first = (v: unknown) => (v as Record<string, unknown>[])[0]!;
    for (const list of ['qsa', 'cnaes_secundarios', 'regime_tributario'])
      if ((ours[list] as unknown[]).length > 0)
        assert.deepEqual(Object.keys(first(ours[list])), Object.keys(first(upstream[list])), `${list} item keys`);
    const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
    for (const [k, v] of Object.entries(upstream)) {
      if (k === 'descricao_porte') continue;
      if (k !== 'email') assert.equal(kind(ours[k]), kind(v), `${k}: the same JSON type`);
      if (k in OKBR_EXCEPTIONS) assert.notDeepEqual(ours[k], v, `${k} is listed as different: ${OKBR_EXCEPTIONS[k]}`);
      else assert.deepEqual(ours[k], v, k);
    }
  });
});
