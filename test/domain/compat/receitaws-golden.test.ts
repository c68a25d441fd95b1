// The ReceitaWS shape on two whole months (the real sample and the synthetic demo-400, quirks and
// all): for every establishment, the 200 body from the imported snapshot must equal what the
// documented rules give from the same raw CSV rows (test/compat/reference/receitaws.ts), field by
// field, key order included, byte for byte. The only differences allowed are the named exceptions
// below, each where our snapshot stores a cleaned value (docs/receita-dump.md §7), each checked
// to explain the difference it is used for, and each used somewhere. Then the committed bodies in
// test/fixtures/compat-golden/receitaws/ are compared byte for byte (UPDATE_GOLDEN=1 rewrites them).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import { runImport } from '../../../importer/run.ts';
import { ibgeOfSiafi } from '../../../src/domain/compat/ibge.ts';
import { receitaWsShape } from '../../../src/domain/compat/receitaws.ts';
import { ReceitawsBodySchema } from '../../../src/domain/compat/receitaws-schema.ts';
import type { CompatContext } from '../../../src/domain/compat/rows.ts';
import { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { readRawMonth, type RawMonth } from '../../compat/raw-month.ts';
import { receitawsReference } from '../../compat/reference/receitaws.ts';
import { DEMO_400, RECEITA_MINI } from '../../fixtures/index.ts';
import { tempDataDir } from '../../server/helpers.ts';
import { compatRowsOf } from '../../../src/domain/compat/rows.ts';

const GOLDEN_DIR = fileURLToPath(new URL('../../fixtures/compat-golden/receitaws', import.meta.url));
/** A fixed import time, so the bodies do not change with the day the test runs. */
const IMPORTED_AT = '2026-09-20T04:05:06.789Z';

/** What kind of value a leaf is, by its key: each exception applies to one kind only. */
type Kind = 'text' | 'date' | 'cep' | 'other';
const DATES = new Set(['abertura', 'data_situacao', 'data_situacao_especial', 'data_opcao', 'data_exclusao']);
const TEXTS = new Set([
  'nome',
  'natureza_juridica',
  'logradouro',
  'numero',
  'complemento',
  'municipio',
  'bairro',
  'email',
  'motivo_situacao',
  'fantasia',
  'efr',
  'situacao_especial',
  'text',
  'qual',
  'pais_origem',
  'nome_rep_legal',
  'qual_rep_legal',
]);
const kindOf = (key: string): Kind =>
  DATES.has(key) ? 'date' : TEXTS.has(key) ? 'text' : key === 'cep' ? 'cep' : 'other';

/** Our snapshot stores some values cleaned; the reference reads them raw. Each is one importer rule. */
interface Exception {
  readonly name: string;
  readonly why: string;
  readonly kind: Kind;
  /** The reference value as our snapshot stores it; unchanged where the quirk is absent. */
  readonly fix: (v: string) => string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const EXCEPTIONS: readonly Exception[] = [
  {
    name: 'NUL removed',
    why: 'the importer drops NUL bytes inside fields (docs/receita-dump.md quirk 3)',
    kind: 'text',
    fix: (v) => v.replaceAll('\0', ''),
  },
  {
    name: 'UTF-8 repaired',
    why: 'UTF-8 sequences inside the Latin-1 text are decoded back (quirk 11)',
    kind: 'text',
    fix: (v) => {
      try {
        return utf8.decode(Buffer.from(v, 'latin1'));
      } catch {
        return v;
      }
    },
  },
  {
    name: 'whitespace collapsed',
    why: 'text is trimmed and runs of whitespace (a raw line feed too) become one space (quirks 1, 13)',
    kind: 'text',
    fix: (v) => v.trim().replace(/\s+/g, ' '),
  },
  {
    name: 'invalid date empty',
    why: 'a 7-digit, impossible or absurd-year date is stored as NULL, served "" (quirk 7)',
    kind: 'date',
    fix: (v) => {
      const m = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(v);
      if (m === null) return '';
      const [d, mo, y] = [+m[1]!, +m[2]!, +m[3]!];
      const ok = y >= 1000 && mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
      return ok ? v : '';
    },
  },
  {
    name: 'CEP leading zero',
    why: 'a 7-digit CEP gets back the leading zero the dump lost (quirk 14)',
    kind: 'cep',
    fix: (v) => (/^\d{7}$/.test(v) ? `0${v.slice(0, 1)}.${v.slice(1, 4)}-${v.slice(4)}` : v),
  },
];

interface Use {
  cnpj: string;
  path: string;
  exceptions: string[];
}

/**
 * Walks the reference body beside ours: same keys in the same order, same array lengths, equal
 * leaves, or a leaf the exceptions of its kind turn into ours. Returns the reference with those
 * leaves replaced, for the byte comparison.
 */
function reconcile(ref: unknown, ours: unknown, where: string, cnpj: string, uses: Use[], key = ''): unknown {
  if (Array.isArray(ref)) {
    assert.ok(Array.isArray(ours), `${cnpj} ${where}: array expected`);
    assert.equal(ours.length, ref.length, `${cnpj} ${where}: length`);
    return ref.map((v, i) => reconcile(v, ours[i], `${where}[${i}]`, cnpj, uses, key));
  }
  if (ref !== null && typeof ref === 'object') {
    assert.ok(ours !== null && typeof ours === 'object' && !Array.isArray(ours), `${cnpj} ${where}: object expected`);
    const o = ours as Record<string, unknown>;
    assert.deepEqual(Object.keys(o), Object.keys(ref), `${cnpj} ${where}: keys and their order`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(ref)) out[k] = reconcile(v, o[k], where ? `${where}.${k}` : k, cnpj, uses, k);
    return out;
  }
  if (ref === ours) return ref;
  assert.equal(typeof ref, 'string', `${cnpj} ${where}: ${JSON.stringify(ours)} ≠ reference ${JSON.stringify(ref)}`);
  let v = ref as string;
  const used: string[] = [];
  for (const e of EXCEPTIONS) {
    if (e.kind !== kindOf(key)) continue;
    const fixed = e.fix(v);
    if (fixed !== v) {
      used.push(e.name);
      v = fixed;
    }
  }
  assert.equal(v, ours, `${cnpj} ${where}: ours ${JSON.stringify(ours)}, reference ${JSON.stringify(ref)}`);
  uses.push({ cnpj, path: where, exceptions: used });
  return v;
}

interface Month {
  name: string;
  registry: CompanyRegistry;
  raw: RawMonth;
  ctx: (codeTables: CompatContext['codeTables']) => CompatContext;
  extracted: string | null;
}

const months: Month[] = [];
const uses: Use[] = [];

before(async () => {
  for (const [name, dir] of [
    ['receita-mini', RECEITA_MINI],
    ['demo-400', DEMO_400],
  ] as const) {
    const dataDir = tempDataDir();
    await runImport({ dataDir, inputs: [dir], month: '2026-09', log: () => {} });
    const registry = new CompanyRegistry({ dataDir, contacts: () => [], pollMs: 0, log: () => {} });
    const info = { ...registry.info!, importedAt: IMPORTED_AT };
    months.push({
      name,
      registry,
      raw: await readRawMonth(dir),
      ctx: (codeTables) => ({ codeTables, info, ibge: ibgeOfSiafi }),
      extracted: info.extracted,
    });
  }
});

after(() => {
  for (const m of months) m.registry.close();
});

/** Our body for a CNPJ of a month, with the fixed import time. */
function ours(m: Month, cnpj: string): string {
  const found = compatRowsOf(m.registry, cnpj);
  assert.ok(found, `${m.name}: ${cnpj} not in the snapshot`);
  const answer = receitaWsShape.found(found.rows, m.ctx(found.snapshot.codeTables));
  assert.equal(answer.status, 200);
  return answer.body;
}

test('the months carry what the data dates come from: demo-400 its D60913 names, the real sample none', () => {
  assert.deepEqual(
    months.map((m) => [m.name, m.extracted]),
    [
      ['receita-mini', null],
      ['demo-400', '2026-09-13'],
    ],
  );
});

test('every establishment of both months: our body = the documented rules over the raw rows', () => {
  for (const m of months) {
    const reference = receitawsReference(m.raw, { importedAt: IMPORTED_AT, extracted: m.extracted });
    assert.equal(reference.size, m.registry.info!.counts.establishments, `${m.name}: establishments`);
    for (const [cnpj, ref] of reference) {
      const body = ours(m, cnpj);
      const parsed = JSON.parse(body) as unknown;
      assert.ok(
        Value.Check(ReceitawsBodySchema, parsed),
        `${cnpj}: ${[...Value.Errors(ReceitawsBodySchema, parsed)][0]?.message}`,
      );
      const expected = reconcile(ref, parsed, '', cnpj, uses);
      assert.equal(body, JSON.stringify(expected), `${cnpj}: bytes`);
    }
  }
  // Each exception explains at least one real difference; none stands unused.
  const counts = new Map(EXCEPTIONS.map((e) => [e.name, 0]));
  for (const u of uses) for (const e of u.exceptions) counts.set(e, counts.get(e)! + 1);
  for (const [name, n] of counts) assert.ok(n > 0, `exception "${name}" is never used: remove it`);
  for (const u of uses) assert.ok(u.exceptions.length > 0, `${u.cnpj} ${u.path}: a difference without an exception`);
  if (process.env.SHOW_EXCEPTIONS === '1') for (const u of uses) console.log(u.cnpj, u.path, u.exceptions.join(' + '));
});

/** The committed bodies: each case a client checks, read once by hand against docs/compat.md §5. */
const GOLDEN: readonly (readonly [month: string, cnpj: string, why: string])[] = [
  [
    'receita-mini',
    '33683111000280',
    'SERPRO Brasília: a branch, five secondary CNAEs, Simples since 2014, six partners',
  ],
  [
    'demo-400',
    '13119937000122',
    'head office; partners: persons, one with a legal representative, a foreign one (pais_origem and representative); Simples option date; phone and fax joined',
  ],
  ['demo-400', '62607157000137', 'a legal-entity partner beside a person; tax-regime rows (ReceitaWS shows none)'],
  ['demo-400', '14876406000147', 'an MEI: simei optante with its date, natureza 213-5, two phones'],
  ['demo-400', '00370465000134', 'eight secondary CNAEs'],
  [
    'demo-400',
    '69927684000178',
    'BAIXADA: masked main activity, motivo title-cased, Simples option and exclusion dates; tax regimes',
  ],
  ['demo-400', '96642645000105', 'the company abroad (uf EX, municipality EXTERIOR), BAIXADA'],
  ['demo-400', '62201818000120', 'a public body: efr; tax regimes'],
];

test('the committed bodies, byte for byte', () => {
  const update = process.env.UPDATE_GOLDEN === '1';
  for (const [month, cnpj, why] of GOLDEN) {
    const m = months.find((x) => x.name === month)!;
    const body = ours(m, cnpj);
    const file = path.join(GOLDEN_DIR, `${cnpj}.json`);
    if (update) {
      fs.mkdirSync(GOLDEN_DIR, { recursive: true });
      fs.writeFileSync(file, body);
    }
    assert.equal(body, fs.readFileSync(file, 'utf8'), `${cnpj} (${why})`);
  }
  // No stale file: every committed body is one of the cases above.
  assert.deepEqual(fs.readdirSync(GOLDEN_DIR).sort(), GOLDEN.map(([, c]) => `${c}.json`).sort());
});
