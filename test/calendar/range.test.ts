// The wire syntax of a range (src/calendar/range.ts): every form the spec and decisions.md allow, each bad form, the
// day limit, and the compact form of the dashboard's URL and storage.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  customRange, INVALID_RANGE, MAX_RANGE_DAYS, parseRangeString, parseRangeValue, rangeFromQuery, rangeParams, rangeToString,
  RangeSyntaxError, type RangeSel,
} from '../../src/calendar/range.ts';

const Wire = suite('range: query forms');

Wire('every `range=` value', () => {
  assert.equal(rangeFromQuery({ range: 'today' }), { kind: 'today' });
  assert.equal(rangeFromQuery({ range: '24h' }), { kind: '24h' });
  for (const kind of ['week', 'month', 'lastmonth', 'all'] as const) assert.equal(rangeFromQuery({ range: kind }), { kind });
  assert.equal(rangeFromQuery({ range: '1' }), { kind: 'days', days: 1 });
  assert.equal(rangeFromQuery({ range: '007' }), { kind: 'days', days: 7 });
  assert.equal(rangeFromQuery({ range: String(MAX_RANGE_DAYS) }), { kind: 'days', days: MAX_RANGE_DAYS });
});

Wire('the day limit: more days than the limit are the limit', () => {
  assert.is(MAX_RANGE_DAYS, 3650);
  assert.equal(rangeFromQuery({ range: String(MAX_RANGE_DAYS + 1) }), { kind: 'days', days: MAX_RANGE_DAYS });
  assert.equal(rangeFromQuery({ range: '99999999999999999999' }), { kind: 'days', days: MAX_RANGE_DAYS });
  assert.equal(parseRangeString('3660'), { kind: 'days', days: MAX_RANGE_DAYS }, 'the URL form has the same limit');
});

Wire('no range: null, so the route default applies', () => {
  assert.is(rangeFromQuery({}), null);
  assert.is(rangeFromQuery({ range: '' }), null);
});

Wire('from/to: whole days, ordered, winning over range', () => {
  assert.equal(rangeFromQuery({ from: '2024-05-01', to: '2024-05-03' }), { kind: 'custom', from: '2024-05-01', to: '2024-05-03' });
  assert.equal(rangeFromQuery({ from: '2024-05-03', to: '2024-05-01', range: 'today' }), { kind: 'custom', from: '2024-05-01', to: '2024-05-03' });
  assert.equal(rangeFromQuery({ from: '2024-02-29', to: '2024-02-29' }), { kind: 'custom', from: '2024-02-29', to: '2024-02-29' }, 'a leap day');
  assert.equal(rangeFromQuery({ from: '2023-12-31', to: '2024-01-01' }), { kind: 'custom', from: '2023-12-31', to: '2024-01-01' });
});

Wire('each bad form throws the one error', () => {
  const bad: { range?: string; from?: string; to?: string }[] = [
    { from: '2024-05-01' }, { to: '2024-05-01' }, { from: '', to: '' }, { from: '2024-5-01', to: '2024-05-02' },
    { from: '2024-02-30', to: '2024-03-01' }, { from: '2023-02-29', to: '2023-03-01' }, { from: '2024-13-01', to: '2024-12-01' },
    { from: '2024-00-10', to: '2024-01-01' }, { from: '2024-01-00', to: '2024-01-01' }, { from: 'yesterday', to: '2024-05-01' },
    { from: '2024-05-01T00:00', to: '2024-05-02' }, { from: ' 2024-05-01', to: '2024-05-02' }, { range: '2024-05-01..2024-05-02', from: '2024-05-01' },
    { range: '0' }, { range: '-3' }, { range: '1.5' }, { range: '1e3' }, { range: ' 7' }, { range: 'weeks' }, { range: 'All' },
    { range: 'TODAY' }, { range: '24H' }, { range: '48h' }, { range: 'last-month' }, { range: '2024-05-01..2024-05-02' },
  ];
  for (const q of bad) {
    try {
      rangeFromQuery(q);
      assert.unreachable(JSON.stringify(q));
    } catch (err) {
      assert.instance(err, RangeSyntaxError, JSON.stringify(q));
      assert.is((err as Error).message, INVALID_RANGE);
    }
  }
  assert.is(INVALID_RANGE, 'Invalid date range');
});

Wire.run();

const Compact = suite('range: the compact form (URL, cost:range)');

Compact('every selection round-trips through its text and its query', () => {
  const all: RangeSel[] = [
    { kind: 'today' }, { kind: '24h' }, { kind: 'days', days: 3 }, { kind: 'days', days: MAX_RANGE_DAYS }, { kind: 'week' },
    { kind: 'month' }, { kind: 'lastmonth' }, { kind: 'all' }, { kind: 'custom', from: '2025-01-01', to: '2025-01-31' },
  ];
  for (const sel of all) {
    assert.equal(parseRangeString(rangeToString(sel)), sel, rangeToString(sel));
    const q = rangeParams(sel);
    assert.equal(rangeFromQuery(q), sel, JSON.stringify(q));
  }
  assert.is(rangeToString({ kind: 'custom', from: '2025-01-01', to: '2025-01-31' }), '2025-01-01..2025-01-31');
  assert.equal(rangeParams({ kind: 'custom', from: '2025-01-01', to: '2025-01-31' }), { from: '2025-01-01', to: '2025-01-31' });
  assert.equal(rangeParams({ kind: 'days', days: 7 }), { range: '7' });
});

Compact('a reversed custom text comes back ordered; anything malformed is null', () => {
  assert.equal(parseRangeString('2025-01-31..2025-01-01'), { kind: 'custom', from: '2025-01-01', to: '2025-01-31' });
  for (const s of [null, undefined, '', '0', '-1', 'x', '2025-02-30..2025-03-01', '2025-01-01..', '..2025-01-01', '2025-01-01...2025-01-02', '2025-01-01']) {
    assert.is(parseRangeString(s), null, String(s));
  }
  assert.is(parseRangeValue('fortnight'), null);
});

Compact('customRange checks both days and orders them', () => {
  assert.equal(customRange('2024-03-02', '2024-03-01'), { kind: 'custom', from: '2024-03-01', to: '2024-03-02' });
  assert.is(customRange('2024-03-01', '2024-02-30'), null);
  assert.is(customRange('', '2024-02-01'), null);
});

Compact.run();
