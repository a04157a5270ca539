// The previous period of a range (same number of days just before it) and the change text of the cards.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { changeText, previousSpan } from '../../ui/src/previous-period.ts';

const test = suite('previous period');

test('the same number of days just before the range, across a month and a year end', () => {
  assert.equal(previousSpan({ from: '2026-01-01', to: '2026-01-30', kind: 'days' }), { from: '2025-12-02', to: '2025-12-31', label: 'previous 30 days' });
  assert.equal(previousSpan({ from: '2026-03-05', to: '2026-03-05', kind: 'today' }), { from: '2026-03-04', to: '2026-03-04', label: 'the day before' });
  assert.equal(previousSpan({ from: '2024-03-01', to: '2024-03-31', kind: 'lastmonth' })?.from, '2024-01-30', '31 days before March 2024 (a leap year)');
  assert.is(previousSpan({ from: '1970-01-01', to: '2026-03-05', kind: 'all' }), null);
  assert.is(previousSpan({ from: '2026-03-04', to: '2026-03-05', kind: '24h' }), null);
});

test('change text: signed whole percent, new, no change', () => {
  assert.is(changeText(118, 100, 'previous 30 days'), '+18% vs previous 30 days');
  assert.is(changeText(7, 8, 'previous 7 days'), '−13% vs previous 7 days');
  assert.is(changeText(5, 0, 'the day before'), 'new vs the day before');
  assert.is(changeText(0, 0, 'the day before'), 'no change vs the day before');
  assert.is(changeText(3, 3, 'previous 3 days'), 'no change vs previous 3 days');
  assert.is(changeText(100.2, 100, 'previous 3 days'), '+<1% vs previous 3 days');
});

test.run();
