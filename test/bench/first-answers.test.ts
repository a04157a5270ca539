// bench/first-answers.ts latencyDuringRechecks on a small generated history: each route timed the number of times
// asked, and the share of the main thread the passes take alone. The structure is checked, never the timings (the
// server's re-check interval itself: test/main/recheck-interval.test.ts).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { latencyDuringRechecks } from '../../bench/first-answers.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { SHARED } from '../helpers/paths.ts';

const test = suite('bench: requests during re-check passes');

test('every route timed as often as asked, with the passes\' own share of the main thread', async () => {
  const { dir, cleanup } = tempDir('bench-rechecks-');
  try {
    const cfg = path.join(dir, 'cfg');
    execFileSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', cfg, '--mb', '4', '--days', '20', '--seed', '5', '--projects', '4'], { stdio: 'ignore' });
    const routes = ['/api/overview?range=7', '/metrics'];
    const r = await latencyDuringRechecks([cfg], path.join(dir, 'index.db'), routes, 5, 1500);
    assert.equal(Object.keys(r.latency), routes);
    for (const route of routes) {
      assert.is(r.latency[route]!.n, 5);
      assert.ok(r.latency[route]!.p50 > 0 && r.latency[route]!.p95 >= r.latency[route]!.p50);
    }
    assert.ok(r.passesBusy >= 0 && r.passesBusy <= 1, `a share: ${r.passesBusy}`);
  } finally {
    cleanup();
  }
});

test.run();
