// Issue 36, defect 8: Every month shows the months without usage between the first and the last, and a rise of over
// +999 % reads as a multiple ("×125", not "+12431%").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { changeLabel, withChange, withGaps } from '../../ui/src/monthly-rows.ts';

const test = suite('monthly rows');
const month = (key: string, cost: number) => ({ month: key, cost, totalTokens: cost * 10, messages: 1, topModel: 'm' });

test('the months without usage between the first and the last, across a year end, newest first', () => {
  const rows = withGaps([month('2026-02', 5), month('2025-11', 2)]);
  assert.equal(rows.map((m) => [m.month, m.cost, m.topModel]), [
    ['2026-02', 5, 'm'], ['2026-01', 0, null], ['2025-12', 0, null], ['2025-11', 2, 'm'],
  ]);
  assert.equal(withGaps([]), []);
  assert.equal(withGaps([month('2026-03', 1)]).map((m) => m.month), ['2026-03']);
});

test('the change against the month before: −100% into an empty month, new after one, — between two, a multiple above +999%', () => {
  const rows = withChange(withGaps([month('2026-04', 250.62), month('2026-03', 2), month('2025-12', 3)]));
  assert.equal(rows.map((m) => [m.month, m.change === null ? null : Math.round(m.change * 100)]), [
    ['2026-04', 12431], ['2026-03', null], ['2026-02', null], ['2026-01', -100], ['2025-12', null],
  ]);
  assert.equal(rows.map(changeLabel), ['×125', 'new', '—', '−100%', 'new']);
  assert.is(changeLabel({ cost: 1, change: 9.99 }), '+999%');
  assert.is(changeLabel({ cost: 1, change: 0.18 }), '+18%');
  assert.is(changeLabel({ cost: 1, change: 0 }), '0%');
});

test.run();
