// The web app's text of a changed value (change-labels.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { valueText } from '../../../src/server/web/change-labels.ts';

test('a capital social is shown in reais, exact past 2^53 cents', () => {
  assert.equal(valueText('1061004829.23', 'capital_social').replace(/\s/g, ' '), 'R$ 1.061.004.829,23');
  assert.equal(
    valueText('123456789012345678901234.56', 'capital_social').replace(/\s/g, ' '),
    'R$ 123.456.789.012.345.678.901.234,56',
  );
  assert.equal(valueText('90071992547409.93', 'capital_social').replace(/\s/g, ' '), 'R$ 90.071.992.547.409,93');
});
