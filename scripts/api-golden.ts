// The API golden file: captures the API's answers on the sample month with the CURRENT code
// (test/server/api/golden/capture.ts) and compares them with test/fixtures/api-golden/receita-mini.json,
// printing every difference. The file is the proof that a refactor changed no answer: change it
// only when the API changes on purpose, and say why.
//
//   node --import tsx scripts/api-golden.ts                            compare (exit 1 on a difference)
//   node --import tsx scripts/api-golden.ts --amend CASE... --why TEXT  keep the file, expect the current
//                                                                      answer of these cases (with the reason)
//   node --import tsx scripts/api-golden.ts --write                    regenerate it all from the current code
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RECEITA_MINI } from '../test/fixtures/index.ts';
import { captureApi } from '../test/server/api/golden/capture.ts';
import { GOLDEN_FILE, compareGolden, formatDiffs, goldenFile, type GoldenFile } from '../test/server/api/golden/file.ts';
import { currentTree } from '../test/server/api/golden/tree.ts';

const USAGE = 'usage: node --import tsx scripts/api-golden.ts [--write | --amend CASE [--amend CASE...] --why TEXT]';
let opts: { write?: boolean; amend?: string[]; why?: string };
try {
  opts = parseArgs({ options: { write: { type: 'boolean' }, amend: { type: 'string', multiple: true }, why: { type: 'string' } } }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if ((opts.write && opts.amend) || (opts.amend && !opts.why) || (!opts.amend && opts.why)) {
  console.error(USAGE);
  process.exit(2);
}

const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8' }).trim();
const save = (file: GoldenFile) => {
  fs.mkdirSync(path.dirname(GOLDEN_FILE), { recursive: true });
  fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify(file, null, 2)}\n`);
};
const capture = await captureApi(currentTree, RECEITA_MINI);

if (opts.write) {
  const producedBy = { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no') !== '', note: 'scripts/api-golden.ts --write on that commit' };
  save(goldenFile(capture, producedBy, { names: [], why: 'None: this file was produced by code that already sends every header it expects.' }));
  console.log(`${path.relative(process.cwd(), GOLDEN_FILE)}: ${capture.answers.length} answers from ${producedBy.commit}${producedBy.dirty ? ' (uncommitted changes)' : ''}`);
} else {
  const golden = JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
  if (opts.amend) {
    const commit = git('rev-parse', '--short', 'HEAD');
    for (const name of opts.amend) {
      const answer = capture.answers.find((a) => a.case === name);
      if (!answer || !golden.answers.some((a) => a.case === name)) {
        console.error(`no answer named ${JSON.stringify(name)} in ${answer ? 'the golden file' : 'the capture'}`);
        process.exit(2);
      }
      golden.amendments = [...golden.amendments.filter((a) => a.case !== name), { case: name, why: `${opts.why} (recorded at ${commit})`, answer }];
    }
    save(golden);
  }
  const diffs = compareGolden(golden, capture);
  if (diffs.length > 0) {
    console.log(`${diffs.length} answer(s) differ from the golden file (made by ${golden.producedBy.commit}):\n${formatDiffs(diffs)}`);
    process.exitCode = 1;
  } else {
    const amended = golden.amendments.length > 0 ? `, ${golden.amendments.length} of them as amended` : '';
    console.log(`${capture.answers.length} answers, all as in the golden file (made by ${golden.producedBy.commit}${amended})`);
  }
}
