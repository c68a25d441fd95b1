// OpenCNPJ's shape against OpenCNPJ's own rules: both fixture months imported as the importer does,
// and for every establishment the body our shape answers compared with the body the reference port
// of upstream's code (test/compat/reference/opencnpj.ts) builds from the same month's raw rows.
// They must be equal byte for byte, except where one of the named EXCEPTIONS below explains a
// difference: each is a rule of our import (docs/receita-dump.md §7) that upstream does not apply,
// checked on the one field where it occurs, and each must occur (a stale exception fails too).
// Then the committed bodies of test/fixtures/compat-golden/opencnpj/, byte for byte.
// COMPAT_GOLDEN_WRITE=1 rewrites those files from the current code (then read them by hand).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import { runImport } from '../../../importer/run.ts';
import { repairUtf8 } from '../../../importer/read/decode.ts';
import { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { ibgeOfSiafi } from '../../../src/domain/compat/ibge.ts';
import { opencnpj } from '../../../src/domain/compat/opencnpj.ts';
import { OpenCnpjSchema } from '../../../src/domain/compat/opencnpj-schema.ts';
import { isCalendarDate } from '../../../src/lib/calendar.ts';
import { openCnpjReference, type ReferenceAnswer } from '../../compat/reference/opencnpj.ts';
import { DEMO_400, RECEITA_MINI } from '../../fixtures/index.ts';
import { tempDataDir } from '../../server/helpers.ts';
import { compatRowsOf } from '../../../src/domain/compat/rows.ts';

const GOLDEN_DIR = fileURLToPath(new URL('../../fixtures/compat-golden/opencnpj', import.meta.url));

/** The committed bodies: CNPJ → month, and what each one shows. */
const GOLDEN: Record<string, { month: Month; shows: string }> = {
  '33683111000280': {
    month: 'receita-mini',
    shows:
      'a branch (real rows: SERPRO Brasília), 5 secondary CNAEs, Simples S with its date, MEI N with 0000-00-00, 6 partners (PF) in import order',
  },
  '45994752000153': {
    month: 'demo-400',
    shows: 'a head office, 5 secondary CNAEs, Simples and MEI N with their dates',
  },
  '96642645000105': { month: 'demo-400', shows: 'a company abroad (uf EX), no Simples row: its four fields ""' },
  '62742270000125': { month: 'demo-400', shows: 'an MEI (opcao_mei S and its date), 5 secondary CNAEs' },
  '13119937000122': {
    month: 'demo-400',
    shows: 'partners PF, foreign (no document) and PF with a legal representative (not shown upstream); a fax',
  },
  '62607157000137': {
    month: 'demo-400',
    shows: 'a PJ partner beside a PF one; a company with tax-regime rows (not in this shape)',
  },
  '12ABC34501DE35': {
    month: 'demo-400',
    shows: 'an alphanumeric CNPJ (a head office, order 01DE), e-mail as published (mixed case)',
  },
};

type Month = 'receita-mini' | 'demo-400';
const MONTHS: Record<Month, string> = { 'receita-mini': RECEITA_MINI, 'demo-400': DEMO_400 };

interface Diff {
  path: string;
  ours: unknown;
  theirs: unknown;
}

/**
 * Differences kept on purpose. `explains` sees one differing leaf (ours, upstream's) and says
 * whether this rule accounts for it exactly; nothing is normalised beforehand.
 */
const EXCEPTIONS: Record<string, { why: string; explains(d: Diff): boolean }> = {
  'whitespace trimmed and collapsed': {
    why: 'our snapshot stores text trimmed, runs of spaces and line breaks as one space (quirks 1, 13); upstream serves the field as read',
    explains: ({ ours, theirs }) => typeof theirs === 'string' && ours === theirs.replace(/\s+/g, ' ').trim(),
  },
  'NUL bytes removed': {
    why: 'our importer drops NUL bytes before parsing (quirk 3); upstream keeps what DuckDB reads (uncertain: DuckDB may also refuse the row)',
    explains: ({ ours, theirs }) =>
      typeof theirs === 'string' &&
      theirs.includes('\0') &&
      ours === theirs.replaceAll('\0', '').replace(/\s+/g, ' ').trim(),
  },
  'UTF-8 inside the Latin-1 text decoded': {
    why: 'our importer decodes UTF-8 sequences found inside the single-byte text (quirk 11); upstream reads CP1252 only and shows the mojibake',
    explains: ({ ours, theirs }) => typeof theirs === 'string' && ours !== theirs && ours === repairUtf8(theirs),
  },
  'invalid date empty': {
    why: 'our snapshot stores 0, 00000000, 7-digit, impossible and out-of-range dates as NULL (quirk 7), answered ""; upstream formats any 8 digits (0000-00-00, 1977-02-30, 0202-01-13) and passes other values through',
    explains: ({ path, ours, theirs }) =>
      NULL_DATES.test(path) && ours === '' && typeof theirs === 'string' && theirs !== '' && !isRealDate(theirs),
  },
  'CEP leading zero restored': {
    why: 'the dump sometimes drops a CEP’s leading zero (quirk 14); we store the CEP as a number and answer its 8 digits',
    explains: ({ path, ours, theirs }) =>
      path === 'cep' && typeof theirs === 'string' && /^\d{7}$/.test(theirs) && ours === `0${theirs}`,
  },
  'capital without leading zeros': {
    why: 'older months zero-pad the capital (000000030000,00, quirk 12); we store exact cents and answer them unpadded',
    explains: ({ path, ours, theirs }) =>
      path === 'capital_social' &&
      typeof theirs === 'string' &&
      /^0\d/.test(theirs) &&
      ours === theirs.replace(/^0+(?=\d)/, ''),
  },
};

/**
 * The dates answered "" when NULL. Not the Simples dates: there a NULL answers 0000-00-00, upstream's
 * reading of the dump's 00000000, so a difference there is no exception.
 */
const NULL_DATES = /^(data_situacao_cadastral|data_inicio_atividade|QSA\[\d+\]\.data_entrada_sociedade)$/;

/** A date our importer keeps: a calendar date from year 1800 on (importer/tables/fields.ts `date`). */
function isRealDate(s: string): boolean {
  return isCalendarDate(s) && Number(s.slice(0, 4)) >= 1800;
}

/** Upstream writes one line per row of a repeated key; which one it serves is its binary search's pick. */
const DUPLICATE_KEY =
  'a CNPJ the dump repeats: upstream writes one line per row and serves whichever its binary search meets; we keep the row read last (quirk 8)';

function leafDiffs(ours: unknown, theirs: unknown, at: string, out: Diff[]): void {
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    ours.forEach((v, i) => leafDiffs(v, theirs[i], `${at}[${i}]`, out));
  } else if (isObject(ours) && isObject(theirs) && Object.keys(ours).join() === Object.keys(theirs).join()) {
    for (const k of Object.keys(ours)) leafDiffs(ours[k], theirs[k], at === '' ? k : `${at}.${k}`, out);
  } else if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
    out.push({ path: at, ours, theirs });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Imported {
  registry: CompanyRegistry;
  reference: Map<string, ReferenceAnswer[]>;
}
const months = {} as Record<Month, Imported>;
/** Where each exception applied: name → "month cnpj path" lines. */
const applied = new Map<string, string[]>();

before(async () => {
  for (const [month, dir] of Object.entries(MONTHS) as [Month, string][]) {
    const dataDir = tempDataDir();
    await runImport({ dataDir, inputs: [dir], month: '2026-09' });
    months[month] = {
      registry: new CompanyRegistry({ dataDir, contacts: () => [], pollMs: 0 }),
      reference: await openCnpjReference(dir),
    };
  }
});

after(() => {
  for (const m of Object.values(months)) m.registry.close();
});

function answer(month: Month, cnpj: string): string | null {
  const found = compatRowsOf(months[month].registry, cnpj);
  if (found === null) return null;
  const { rows, snapshot } = found;
  return opencnpj.found(rows, { codeTables: snapshot.codeTables, info: snapshot.info, ibge: ibgeOfSiafi }).body;
}

function note(name: string, where: string): void {
  const list = applied.get(name) ?? [];
  list.push(where);
  applied.set(name, list);
}

for (const month of Object.keys(MONTHS) as Month[]) {
  test(`${month}: every establishment answers what OpenCNPJ's code builds from the same rows, but for the named exceptions`, () => {
    const { registry, reference } = months[month];
    assert.ok(reference.size > 0);
    // Nothing upstream has is missing here, and nothing is here that upstream lacks.
    const info = compatRowsOf(registry, reference.keys().next().value!)!.snapshot.info;
    assert.equal(info.counts.establishments, reference.size, 'establishments in our snapshot vs upstream');
    const failures: string[] = [];
    for (const [cnpj, candidates] of reference) {
      const ours = answer(month, cnpj);
      if (ours === null) {
        failures.push(`${cnpj}: not found in our snapshot`);
        continue;
      }
      // Repeated rows give one candidate per row combination, in the order read; we keep the last.
      const theirs = candidates[candidates.length - 1]!.body;
      if (new Set(candidates.map((c) => c.body)).size > 1) note(DUPLICATE_KEY, `${month} ${cnpj}`);
      if (ours === theirs) continue;
      const diffs: Diff[] = [];
      leafDiffs(JSON.parse(ours), JSON.parse(theirs), '', diffs);
      assert.ok(diffs.length > 0, `${cnpj}: same values, different text`);
      for (const d of diffs) {
        const name = Object.keys(EXCEPTIONS).find((n) => EXCEPTIONS[n]!.explains(d));
        if (name === undefined)
          failures.push(`${cnpj} ${d.path}: ours ${JSON.stringify(d.ours)}, upstream ${JSON.stringify(d.theirs)}`);
        else note(name, `${month} ${cnpj} ${d.path}: ${JSON.stringify(d.theirs)} → ${JSON.stringify(d.ours)}`);
      }
    }
    assert.deepEqual(failures, []);
  });
}

test('each named exception occurs in the fixture months (none is stale)', (t) => {
  for (const name of [...Object.keys(EXCEPTIONS), DUPLICATE_KEY]) {
    assert.ok(applied.has(name), `exception never applied: ${name}`);
    t.diagnostic(`${name}: ${applied.get(name)!.join('; ')}`);
  }
});

test('every answer is valid against the TypeBox schema, keys in its order', () => {
  const keys = Object.keys(OpenCnpjSchema.properties).join();
  for (const month of Object.keys(MONTHS) as Month[]) {
    for (const cnpj of months[month].reference.keys()) {
      const body = JSON.parse(answer(month, cnpj)!);
      assert.ok(
        Value.Check(OpenCnpjSchema, body),
        `${month} ${cnpj}: ${[...Value.Errors(OpenCnpjSchema, body)][0]?.message}`,
      );
      assert.equal(Object.keys(body).join(), keys, `${month} ${cnpj}`);
    }
  }
});

test('the committed golden bodies, byte for byte', () => {
  if (process.env.COMPAT_GOLDEN_WRITE) fs.mkdirSync(GOLDEN_DIR, { recursive: true });
  for (const [cnpj, { month }] of Object.entries(GOLDEN)) {
    const body = answer(month, cnpj);
    assert.ok(body !== null, `${cnpj} in ${month}`);
    const file = path.join(GOLDEN_DIR, `${cnpj}.json`);
    if (process.env.COMPAT_GOLDEN_WRITE) fs.writeFileSync(file, body);
    assert.equal(body, fs.readFileSync(file, 'utf8'), `${cnpj} (${GOLDEN[cnpj]!.shows})`);
  }
  // No stray file in the folder: each one is listed above with what it shows.
  assert.deepEqual(
    fs.readdirSync(GOLDEN_DIR).sort(),
    Object.keys(GOLDEN)
      .map((c) => `${c}.json`)
      .sort(),
  );
});
