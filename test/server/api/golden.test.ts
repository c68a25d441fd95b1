// The API's answers on the sample month, byte for byte as the golden file says: the file was made
// by the code before the #13 restructuring (98eae09), so this test is the proof that the layers,
// the new router and the split access code changed no answer. On a difference it names the
// case, the request, and what differs (status, header, body with both bodies when they are small).
// An intended change goes through scripts/api-golden.ts (--amend with a reason, or --write).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { RECEITA_MINI } from '../../fixtures/index.ts';
import { captureApi } from './golden/capture.ts';
import { GOLDEN_FILE, compareGolden, formatDiffs, type GoldenFile } from './golden/file.ts';
import { currentTree } from './golden/tree.ts';

test('the API answers the sample month as the golden file says', async (t) => {
  const golden = JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
  const capture = await captureApi(currentTree, RECEITA_MINI);
  assert.ok(capture.cnpjs.length > 0 && capture.answers.length === golden.answers.length, `${capture.answers.length} answers, the golden file has ${golden.answers.length}`);
  for (const why of new Set(golden.amendments.map((a) => a.why))) {
    const cases = golden.amendments.filter((a) => a.why === why).map((a) => a.case);
    t.diagnostic(`amended since ${golden.producedBy.commit.slice(0, 7)}: ${cases.join('; ')}: ${why}`);
  }
  const diffs = compareGolden(golden, capture);
  if (diffs.length > 0) {
    assert.fail(`${diffs.length} answer(s) differ from ${GOLDEN_FILE} (made by ${golden.producedBy.commit}):\n${formatDiffs(diffs)}\n` +
      'If the change is intended: node --import tsx scripts/api-golden.ts --amend CASE --why REASON (or --write), and say why in the commit.');
  }
});
