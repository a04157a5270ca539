// The server's heap setting (src/main/heap.ts) takes effect when set at run time: two real processes do the same
// allocations, a query's rows kept past scavenges and dropped, and the tuned one's heap stays well below the other's
// (about 100 against 190-225 MB on the machine this was written on).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../helpers/paths.ts';

const Heap = suite('heap setting');

const peakMb = (mode: 'tuned' | 'plain'): number => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/heap-churn.ts'), mode], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as { peakMb: number }).peakMb;
};

Heap('the old generation is collected near its live size', () => {
  const tuned = peakMb('tuned');
  const plain = peakMb('plain');
  assert.ok(tuned < plain * 0.75, `tuned ${tuned.toFixed(0)} MB, plain ${plain.toFixed(0)} MB`);
});

Heap.run();
