// Money axes whose labels never repeat and week and month labels: the pure parts, in Node.
process.env.TZ = 'America/New_York';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatLongBucket, formatUsdAxis, formatUsdCompact } from '../../ui/src/format.ts';
import { niceTicks } from '../../ui/src/components/cost-chart-series.ts';

const Axis = suite('money axis labels');

Axis('small values get the decimals that tell the ticks apart', () => {
  const ticks = niceTicks(0.012);
  assert.equal(ticks.map(formatUsdCompact).length, new Set(ticks.map(formatUsdCompact)).size + 1, 'the compact labels repeat here');
  assert.equal(formatUsdAxis(ticks), ['$0.000', '$0.005', '$0.010', '$0.015']);
  assert.equal(formatUsdAxis(niceTicks(0.00004)), ['$0.00000', '$0.00002', '$0.00004', '$0.00006']);
});

Axis('ordinary axes: one form for every tick (whole dollars, or K)', () => {
  assert.equal(formatUsdAxis(niceTicks(7.3)), ['$0', '$2', '$4', '$6', '$8']);
  assert.equal(formatUsdAxis(niceTicks(43_000)), ['$0', '$20K', '$40K', '$60K']);
  for (const max of [0.0003, 0.002, 0.012, 0.09, 0.7, 3, 17, 240, 9_999, 123_456]) {
    const labels = formatUsdAxis(niceTicks(max));
    assert.is(new Set(labels).size, labels.length, `${max}: ${labels.join(' ')}`);
  }
});

Axis('week and month labels', () => {
  assert.is(formatLongBucket('2026-02', 'month'), 'Feb 2026');
  assert.ok(formatLongBucket('2026-03-02', 'week', true).startsWith('Week of Mar 2'));
});
Axis.run();
