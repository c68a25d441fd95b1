// The API golden files: captures the API's answers with the CURRENT code
// (test/server/api/golden/capture.ts) on each sample month of test/server/api/golden/samples.ts
// (receita-mini, demo-400) and compares them with its file in test/fixtures/api-golden/,
// printing every difference. The files are the proof that a refactor changed no answer: change
// them only when the API changes on purpose, and say why.
//
//   node --import tsx scripts/api-golden.ts [--sample NAME...]                  compare (exit 1 on a difference)
//   node --import tsx scripts/api-golden.ts [--sample NAME...] --amend CASE... --why TEXT
//                                            keep the files, expect the current answer of these cases (with the reason)
//   node --import tsx scripts/api-golden.ts [--sample NAME...] --write         regenerate them from the current code
// Without --sample: every sample (an amended case must then exist in each).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { captureApi } from '../test/server/api/golden/capture.ts';
import { compareGolden, formatDiffs, goldenFile, loadGolden, saveGolden } from '../test/server/api/golden/file.ts';
import { SAMPLES, sampleNamed, type GoldenSample } from '../test/server/api/golden/samples.ts';
import { currentTree } from '../test/server/api/golden/tree.ts';

const USAGE =
  'usage: node --import tsx scripts/api-golden.ts [--sample NAME...] [--write | --amend CASE [--amend CASE...] --why TEXT]';
let opts: { write?: boolean; amend?: string[]; why?: string; sample?: string[] };
let samples: readonly GoldenSample[];
try {
  opts = parseArgs({
    options: {
      write: { type: 'boolean' },
      amend: { type: 'string', multiple: true },
      why: { type: 'string' },
      sample: { type: 'string', multiple: true },
    },
  }).values;
  samples = opts.sample ? opts.sample.map(sampleNamed) : SAMPLES;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if ((opts.write && opts.amend) || (opts.amend && !opts.why) || (!opts.amend && opts.why)) {
  console.error(USAGE);
  process.exit(2);
}

const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8' }).trim();

for (const sample of samples) {
  const file = path.relative(process.cwd(), sample.file);
  const t0 = Date.now();
  const capture = await captureApi(currentTree, sample);
  const took = `${((Date.now() - t0) / 1000).toFixed(1)} s`;

  if (opts.write) {
    const producedBy = {
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
      note: 'scripts/api-golden.ts --write on that commit',
    };
    saveGolden(
      sample.file,
      goldenFile(sample, capture, producedBy, {
        names: [],
        why: 'None: this file was produced by code that already sends every header it expects.',
      }),
    );
    console.log(
      `${file}: ${capture.answers.length} answers from ${producedBy.commit}${producedBy.dirty ? ' (uncommitted changes)' : ''} (${took})`,
    );
    continue;
  }
  const golden = loadGolden(sample.file);
  if (opts.amend) {
    const commit = git('rev-parse', '--short', 'HEAD');
    for (const name of opts.amend) {
      const answer = capture.answers.find((a) => a.case === name);
      if (!answer || !golden.answers.some((a) => a.case === name)) {
        console.error(
          `${file}: no answer named ${JSON.stringify(name)} in ${answer ? 'the golden file' : 'the capture'}`,
        );
        process.exit(2);
      }
      golden.amendments = [
        ...golden.amendments.filter((a) => a.case !== name),
        { case: name, why: `${opts.why} (recorded at ${commit})`, answer },
      ];
    }
    saveGolden(sample.file, golden);
  }
  const diffs = compareGolden(golden, capture);
  if (diffs.length > 0) {
    console.log(
      `${file}: ${diffs.length} answer(s) differ from the golden file (made by ${golden.producedBy.commit}):\n${formatDiffs(diffs)}`,
    );
    process.exitCode = 1;
  } else {
    const amended = golden.amendments.length > 0 ? `, ${golden.amendments.length} of them as amended` : '';
    console.log(
      `${file}: ${capture.answers.length} answers, all as in the golden file (made by ${golden.producedBy.commit}${amended}) (${took})`,
    );
  }
}
