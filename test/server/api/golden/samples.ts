// The months the API golden test asks: each a committed fixture folder with its golden file.
import { fileURLToPath } from 'node:url';
import { DEMO_400, RECEITA_MINI } from '../../../fixtures/index.ts';
import type { AllForms } from './cases.ts';

export interface GoldenSample {
  name: string;
  /** The fixture folder imported as the month. */
  dir: string;
  /** Its golden file. */
  file: string;
  /** What the month is, for the golden file's `about`. */
  what: string;
  allForms: AllForms;
  /** Bodies of text answers up to this size are kept in the golden file (the diff shows them). */
  bodyKeptMax: number;
}

const goldenPath = (name: string) =>
  fileURLToPath(new URL(`../../../fixtures/api-golden/${name}.json.gz`, import.meta.url));
const isAlphanumeric = (cnpj: string) => /[A-Z]/.test(cnpj);

export const SAMPLES: readonly GoldenSample[] = [
  {
    name: 'receita-mini',
    dir: RECEITA_MINI,
    file: goldenPath('receita-mini'),
    what: 'the sample month test/fixtures/receita-mini (real Receita rows, one establishment)',
    allForms: () => true,
    bodyKeptMax: 4096,
  },
  {
    // 445 establishments: every one in two forms and with contacts (its own data, quirks included),
    // every 40th and the alphanumeric ones in all forms; about 1,500 answers, a few seconds.
    // Lookup bodies (2-4 KB each) are not kept: the hashes alone keep the file small.
    name: 'demo-400',
    dir: DEMO_400,
    file: goldenPath('demo-400'),
    what: 'the synthetic month test/fixtures/demo-400 (400 companies, 445 establishments, quirks injected)',
    allForms: (cnpj, i) => i % 40 === 0 || isAlphanumeric(cnpj),
    bodyKeptMax: 400, // error answers kept (for the diff), lookup bodies hash-only: the file stays small
  },
];

export function sampleNamed(name: string): GoldenSample {
  const s = SAMPLES.find((x) => x.name === name);
  if (!s) throw new Error(`no golden sample named ${JSON.stringify(name)} (${SAMPLES.map((x) => x.name).join(', ')})`);
  return s;
}
