// Pure pieces of the views: CSV text and the model colour palette (no browser needed).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportName, toCsv } from '../../ui/src/export.ts';
import { OTHER, modelPalette, newer, totalsByModel } from '../../ui/src/chart-colors.ts';

const csv = suite('toCsv');

csv('quotes commas, quotes and line breaks, CRLF rows', () => {
  const out = toCsv(['name', 'cost'], [['a, b', 1.5], ['say "hi"', 0], ['two\nlines', null]]);
  assert.is(out, 'name,cost\r\n"a, b",1.5\r\n"say ""hi""",0\r\n"two\nlines",\r\n');
});

csv('neutralises spreadsheet formulas in text but keeps negative numbers', () => {
  assert.is(toCsv(['x'], [['=SUM(A1)'], ['+1'], ['@x'], [-2]]), "x\r\n'=SUM(A1)\r\n'+1\r\n'@x\r\n-2\r\n");
});

csv('fractions are rounded to 6 decimals; whole numbers stay as they are', () => {
  assert.is(toCsv(['cost', 'tokens'], [[110.28603722000004, 123_456_789_012], [0.0000004, 7], [-0.1234567, 0]]), 'cost,tokens\r\n110.286037,123456789012\r\n0,7\r\n-0.123457,0\r\n');
});

csv('non-finite numbers become empty cells', () => {
  assert.is(toCsv(['a', 'b'], [[Number.NaN, Infinity]]), 'a,b\r\n,\r\n');
});

csv('exportName is file-system safe', () => {
  assert.is(exportName('sessions-/x y', { from: '2026-01-01', to: '2026-01-31' }, 'csv'), 'cost-sessions-x-y-2026-01-01_2026-01-31.csv');
  // All time starts at the epoch on the wire: the file names it, not 1970.
  assert.is(exportName('overview', { from: '1970-01-01', to: '2026-11-24', kind: 'all' }, 'json'), 'cost-overview-all-time_2026-11-24.json');
  assert.is(exportName('overview', { from: '2026-11-01', to: '2026-11-24', kind: 'month' }, 'json'), 'cost-overview-2026-11-01_2026-11-24.json');
});

csv.run();

const pal = suite('modelPalette');

pal('ranks models by cost; a model keeps its colour whatever its rank and the other models', () => {
  const p = modelPalette([['claude-haiku-4-5', 1], ['claude-opus-4-5', 9], ['claude-sonnet-4-5', 5]]);
  assert.equal(p.order, ['claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5']);
  assert.is(p.group('claude-opus-4-5'), 'claude-opus-4-5');
  const q = modelPalette([['claude-haiku-4-5', 50], ['claude-sonnet-4-5', 2]]);
  assert.is(q.color('claude-haiku-4-5'), p.color('claude-haiku-4-5'));
  assert.is(q.color('claude-sonnet-4-5'), p.color('claude-sonnet-4-5'));
  assert.is(new Set(['claude-haiku-4-5', 'claude-opus-4-5', 'claude-sonnet-4-5'].map(p.color)).size, 3);
});

// Issue 36: ids without a date suffix sorted as the oldest and gave up their slot, so opus-4-6 changed colour with the range.
pal('an id without a date keeps its slot against older dated ids of its family, whatever the range holds', () => {
  // opus-4-7 and opus-4-1 prefer the same slot: the newer keeps it.
  const allTime = modelPalette([['claude-opus-4-1-20250805', 40], ['claude-opus-4-7', 30], ['claude-opus-4-20250514', 20], ['claude-sonnet-4-5-20250929', 10]]);
  const lastYear = modelPalette([['claude-opus-4-7', 30], ['claude-sonnet-4-5-20250929', 10]]);
  const lastWeek = modelPalette([['claude-opus-4-7', 30], ['claude-opus-4-1-20250805', 1]]);
  assert.is(allTime.color('claude-opus-4-7'), lastYear.color('claude-opus-4-7'));
  assert.is(lastWeek.color('claude-opus-4-7'), lastYear.color('claude-opus-4-7'));
  assert.is.not(allTime.color('claude-opus-4-1-20250805'), allTime.color('claude-opus-4-7'));
  assert.equal(['claude-opus-4-1-20250805', 'claude-opus-4-7', 'claude-3-5-sonnet-20241022', 'claude-opus-4-6'].sort(newer),
    ['claude-opus-4-7', 'claude-opus-4-6', 'claude-opus-4-1-20250805', 'claude-3-5-sonnet-20241022']);
});

pal('two models of one chart never share a colour', () => {
  const models = Array.from({ length: 7 }, (_, i) => [`model-${i}`, i + 1] as [string, number]);
  const p = modelPalette(models);
  assert.is(new Set(models.map(([m]) => p.color(m))).size, 7);
});

pal('more than 7 models: the smallest share the last slot as Other', () => {
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
