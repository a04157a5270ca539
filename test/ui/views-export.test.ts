// Pure pieces of the views: CSV text and the model colour palette (no browser needed).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportName, toCsv } from '../../ui/src/export.ts';
import { OTHER, modelPalette, totalsByModel } from '../../ui/src/chart-colors.ts';

const csv = suite('toCsv');

csv('quotes commas, quotes and line breaks, CRLF rows', () => {
  const out = toCsv(['name', 'cost'], [['a, b', 1.5], ['say "hi"', 0], ['two\nlines', null]]);
  assert.is(out, 'name,cost\r\n"a, b",1.5\r\n"say ""hi""",0\r\n"two\nlines",\r\n');
});

csv('neutralises spreadsheet formulas in text but keeps negative numbers', () => {
  assert.is(toCsv(['x'], [['=SUM(A1)'], ['+1'], ['@x'], [-2]]), "x\r\n'=SUM(A1)\r\n'+1\r\n'@x\r\n-2\r\n");
});

csv('non-finite numbers become empty cells', () => {
  assert.is(toCsv(['a', 'b'], [[Number.NaN, Infinity]]), 'a,b\r\n,\r\n');
});

csv('exportName is file-system safe', () => {
  assert.is(exportName('sessions-/x y', '2026-01-01', '2026-01-31', 'csv'), 'cost-sessions-x-y-2026-01-01_2026-01-31.csv');
});

csv.run();

const pal = suite('modelPalette');

pal('ranks models by cost and keeps colours stable per model', () => {
  const p = modelPalette([['haiku', 1], ['opus', 9], ['sonnet', 5]]);
  assert.equal(p.order, ['opus', 'sonnet', 'haiku']);
  assert.match(p.color('opus'), /^var\(--series-1,/);
  assert.match(p.color('haiku'), /^var\(--series-3,/);
  assert.is(p.group('opus'), 'opus');
});

pal('more than 8 models: the smallest share the last slot as Other', () => {
  const models = Array.from({ length: 10 }, (_, i) => [`m${i}`, 100 - i] as [string, number]);
  const p = modelPalette(models);
  assert.is(p.order.length, 8);
  assert.is(p.order.at(-1), OTHER);
  assert.is(p.group('m9'), OTHER);
  assert.is(p.group('m6'), 'm6');
  assert.is(p.color('m8'), p.color('m9'));
  assert.match(p.color('m9'), /^var\(--series-8,/);
});

pal('totalsByModel sums bucket costs', () => {
  const t = totalsByModel([{ byModel: { a: 1, b: 2 } }, { byModel: { a: 0.5 } }]);
  assert.equal([...t], [['a', 1.5], ['b', 2]]);
});

pal.run();
