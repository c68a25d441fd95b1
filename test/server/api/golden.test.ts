// The API's answers on each golden sample month, byte for byte as its golden file says: the files
// were made by the code before the #13 restructuring (98eae09), so this test is the proof that the
// layers, the new router and the split access code changed no answer. Two months: the real sample
// (one establishment, every body kept) and a committed synthetic month of 445 establishments with
// the dump's quirks (hashes of the lookup bodies). On a difference it names the case, the request,
// and what differs (status, header, body with both bodies when they are kept).
// An intended change goes through scripts/api-golden.ts (--amend with a reason, or --write).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { captureApi } from './golden/capture.ts';
import { compareGolden, formatDiffs, loadGolden } from './golden/file.ts';
import { SAMPLES } from './golden/samples.ts';
import { currentTree } from './golden/tree.ts';

for (const sample of SAMPLES) {
  test(`the API answers the ${sample.name} month as its golden file says`, async (t) => {
    const golden = loadGolden(sample.file);
    const capture = await captureApi(currentTree, sample);
    assert.ok(
      capture.cnpjs.length > 0 && capture.answers.length === golden.answers.length,
      `${capture.answers.length} answers, the golden file has ${golden.answers.length}`,
    );
    for (const why of new Set(golden.amendments.map((a) => a.why))) {
      const cases = golden.amendments.filter((a) => a.why === why).map((a) => a.case);
      t.diagnostic(`amended since ${golden.producedBy.commit.slice(0, 7)}: ${cases.join('; ')}: ${why}`);
    }
    const diffs = compareGolden(golden, capture);
    if (diffs.length > 0) {
      assert.fail(
        `${diffs.length} answer(s) differ from ${path.relative(process.cwd(), sample.file)} (made by ${golden.producedBy.commit}):\n${formatDiffs(diffs)}\n` +
          `If the change is intended: node --import tsx scripts/api-golden.ts --sample ${sample.name} --amend CASE --why REASON (or --write), and say why in the commit.`,
      );
    }
  });
}
