// An API golden file (test/fixtures/api-golden/NAME.json.gz, one per sample; gzip keeps the
// fixtures small, `zcat` reads them): what the capture recorded,
// where it came from, and the comparison of a fresh capture with it, answer by answer.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  CLOCK,
  MONTH,
  PUBLIC_URL,
  VOLATILE_HEADERS,
  VOLATILE_STATUS_FIELDS,
  type GoldenAnswer,
  type GoldenCapture,
} from './capture.ts';
import type { GoldenSample } from './samples.ts';

export interface GoldenFile extends GoldenCapture {
  about: string;
  /** The commit whose code answered (and whether its tree had uncommitted changes). */
  producedBy: { commit: string; dirty: boolean; note: string };
  regenerate: string;
  clock: string;
  publicUrl: string;
  month: string;
  volatileHeaders: string[];
  volatileStatusFields: readonly string[];
  /**
   * Headers an answer may carry although the golden answer did not: added on purpose after the
   * golden file was made. Any header the golden answer has must still come, with its value.
   */
  toleratedNewHeaders: { names: string[]; why: string };
  /**
   * Answers changed on purpose since producedBy: the current answer expected instead of the
   * golden one (which stays in `answers`, so both can be read), each with the reason.
   */
  amendments: GoldenAmendment[];
}

export interface GoldenAmendment {
  case: string;
  why: string;
  answer: GoldenAnswer;
}

/** The security headers #12 added after 98eae09 (b8f7931): nosniff on the API's JSON and /openapi.json, the web app's set on /docs. */
export const SECURITY_HEADERS_SINCE_12 = {
  names: [
    'content-security-policy',
    'cross-origin-opener-policy',
    'permissions-policy',
    'referrer-policy',
    'x-content-type-options',
    'x-frame-options',
  ],
  why: "Added on purpose by #12 (commit b8f7931) after the code that produced this file: X-Content-Type-Options: nosniff on every JSON answer and /openapi.json, the web app's security headers on /docs. Empty once the file is regenerated from code that has them.",
};

export function goldenFile(
  sample: GoldenSample,
  capture: GoldenCapture,
  producedBy: GoldenFile['producedBy'],
  tolerated: GoldenFile['toleratedNewHeaders'],
): GoldenFile {
  return {
    about: `Answers of the API on ${sample.what} (imported by the importer, served by the server on loopback): status, headers without the volatile ones, body size and sha256 (and the body when it is text of at most ${sample.bodyKeptMax} bytes). Checked by test/server/api/golden.test.ts; the requests are in test/server/api/golden/cases.ts, the forms asked per establishment in samples.ts.`,
    producedBy,
    regenerate: `node --import tsx scripts/api-golden.ts --sample ${sample.name} --write   (only when the API changes on purpose; without --write it compares and prints the differences)`,
    clock: CLOCK,
    publicUrl: PUBLIC_URL,
    month: MONTH,
    volatileHeaders: VOLATILE_HEADERS,
    volatileStatusFields: VOLATILE_STATUS_FIELDS,
    toleratedNewHeaders: tolerated,
    amendments: [],
    cnpjs: capture.cnpjs,
    answers: capture.answers,
  };
}

export interface GoldenDiff {
  case: string;
  lines: string[];
}

/** Every difference between the golden answers and a fresh capture; [] when they agree. */
export function compareGolden(golden: GoldenFile, now: GoldenCapture): GoldenDiff[] {
  const diffs: GoldenDiff[] = [];
  if (golden.cnpjs.join() !== now.cnpjs.join()) {
    diffs.push({
      case: '(sample establishments)',
      lines: [`golden: ${golden.cnpjs.join(', ')}`, `now:    ${now.cnpjs.join(', ')}`],
    });
  }
  const byCase = new Map(now.answers.map((a) => [a.case, a]));
  const amended = new Map(golden.amendments.map((a) => [a.case, a.answer]));
  for (const recorded of golden.answers) {
    const cur = byCase.get(recorded.case);
    byCase.delete(recorded.case);
    if (!cur) {
      diffs.push({ case: recorded.case, lines: ['asked in the golden file, not now'] });
      continue;
    }
    // An amended answer was recorded from code that sends every header: compared in full.
    const old = amended.get(recorded.case) ?? recorded;
    const lines = answerDiff(old, cur, amended.has(old.case) ? [] : golden.toleratedNewHeaders.names);
    const note = amended.has(old.case) ? ['(compared with its amendment: "golden" below is the amended answer)'] : [];
    if (lines.length > 0) diffs.push({ case: old.case, lines: [`request: ${old.request}`, ...note, ...lines] });
  }
  for (const a of golden.amendments)
    if (!golden.answers.some((r) => r.case === a.case))
      diffs.push({ case: a.case, lines: ['amended, but not among the golden answers'] });
  for (const extra of byCase.values())
    diffs.push({ case: extra.case, lines: [`asked now, not in the golden file: ${extra.request}`] });
  return diffs;
}

function answerDiff(old: GoldenAnswer, cur: GoldenAnswer, tolerated: readonly string[]): string[] {
  const lines: string[] = [];
  if (old.request !== cur.request) lines.push(`request changed: golden ${old.request} / now ${cur.request}`);
  if (old.status !== cur.status) lines.push(`status: golden ${old.status}, now ${cur.status}`);
  for (const name of new Set([...Object.keys(old.headers), ...Object.keys(cur.headers)])) {
    const [o, c] = [old.headers[name], cur.headers[name]];
    if (o === c || (o === undefined && tolerated.includes(name))) continue;
    lines.push(
      `header ${name}: golden ${o === undefined ? '(absent)' : JSON.stringify(o)}, now ${c === undefined ? '(absent)' : JSON.stringify(c)}`,
    );
  }
  if (old.sha256 !== cur.sha256) {
    lines.push(
      `body: golden ${old.bytes} bytes sha256 ${old.sha256.slice(0, 16)}…, now ${cur.bytes} bytes sha256 ${cur.sha256.slice(0, 16)}…`,
    );
    const shown = (a: GoldenAnswer) => a.body ?? (a.bytes === 0 ? '(empty)' : '(not kept: large or not JSON)');
    lines.push(`  golden body: ${shown(old)}`);
    lines.push(`  now body:    ${shown(cur)}`);
  }
  return lines;
}

export function formatDiffs(diffs: GoldenDiff[]): string {
  return diffs.map((d) => [`✗ ${d.case}`, ...d.lines.map((l) => `    ${l}`)].join('\n')).join('\n');
}

export function saveGolden(file: string, golden: GoldenFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // One answer per line: a readable file once unzipped, and a short diff when one answer changes.
  const { answers, ...rest } = golden;
  const head = JSON.stringify(rest, null, 2).replace(/\n}$/, '');
  const text = `${head},\n  "answers": [\n${answers.map((a) => `    ${JSON.stringify(a)}`).join(',\n')}\n  ]\n}\n`;
  fs.writeFileSync(file, zlib.gzipSync(text, { level: 9 }));
}

export function loadGolden(file: string): GoldenFile {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as GoldenFile;
}
