// `npm run bench -- --ab <ref>` (bench/ab.ts) on a tiny generated history: the ref is built from its own tree in a
// temporary folder, both builds serve the same dirs in interleaved pairs (AB, then BA), and the report gives every
// figure's medians and per-pair differences. The structure is checked, never the timings.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../helpers/jsonl.ts';
import { ROOT, SHARED } from '../helpers/paths.ts';
import { signTest } from '../../bench/ab.ts';

const test = suite('bench --ab');

const FIGURES = [
  'cold index ms',
  'final ms today',
  'final ms 7 days',
  'final ms history last day',
  'final ms history last 7 days',
  'peak RSS MB (cold)',
  'warm queryable ms',
  'p50 ms /api/overview?range=7',
  'p50 ms /api/overview?range=all',
  'p50 ms /api/insights?range=30',
];

test('builds the ref apart, runs both builds in interleaved pairs, prints medians and per-pair differences', () => {
  const dir = tempDir('bench-ab-').dir;
  execFileSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', dir, '--mb', '2', '--days', '20', '--seed', '3', '--projects', '3'], { stdio: 'ignore' });
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--ab', 'HEAD', '--dirs', dir, '--cold-runs', '2'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 8 * 60_000,
  });
  assert.is(r.status, 0, `bench exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const lines = r.stdout.split('\n');

  // The ref's own tree, built in a folder of its own that is gone afterwards.
  const building = /^building HEAD \(([0-9a-f]{7})\) in (\S+) \.\.\.$/.exec(lines.find((l) => l.startsWith('building ')) ?? '');
  assert.ok(building, r.stdout);
  assert.is(building[1], head.slice(0, 7));
  const refDir = building[2]!;
  assert.not.ok(fs.existsSync(refDir), 'the ref build is removed');

  // Both builds ran, each from its own dist, interleaved: A then B, then B then A.
  const runs = lines.map((l) => /^pair (\d)\/2: ([AB]) \((\S+)\) cold index \d+ ms$/.exec(l)).filter((m) => m !== null);
  assert.equal(runs.map((m) => `${m[1]}${m[2]}`), ['1A', '1B', '2B', '2A']);
  for (const m of runs) assert.is(m[3], m[2] === 'A' ? path.join(ROOT, 'dist', 'main.js') : path.join(refDir, 'dist', 'main.js'));
  assert.ok(lines.some((l) => l.startsWith(`A/B over ${dir}: A = this checkout, B = HEAD (${head.slice(0, 7)}), 2 pairs, order per pair AB BA`)), r.stdout);

  // Each figure: both medians, the median of the differences (the nearest rank: of two pairs, the smaller) and both pairs'.
  for (const name of FIGURES) {
    const row = lines.find((l) => l.startsWith(name.padEnd(36)));
    assert.ok(row, `a row for ${name}`);
    const m = /^\s*(-?\d+\.\d)\s+(-?\d+\.\d)\s+(-?\d+\.\d)(?: \(-?\d+\.\d%\))?\s+(\d)\s+(\d)\s+(\d\.\d\d)\s+(-?\d+\.\d), (-?\d+\.\d)$/.exec(row.slice(36));
    assert.ok(m, `the row of ${name}: ${row}`);
    const [a, b, diff, below, above, p, p1, p2] = m.slice(1).map(Number) as [number, number, number, number, number, number, number, number];
    assert.ok(a > 0 && b > 0, `${name}: both builds measured`);
    assert.is(diff, Math.min(p1, p2), `${name}: the median of the per-pair differences`);
    // The pairs on each side (a difference printed as 0.0 may be a small one of either sign), and the sign test of
    // that split (two pairs: never below 0.5).
    for (const d of [p1, p2]) if (d !== 0) assert.ok(d < 0 ? below > 0 : above > 0, `${name}: the pair of ${d} counted`);
    assert.ok(below + above <= 2);
    assert.is(p, signTest([...Array<number>(below).fill(-1), ...Array<number>(above).fill(1)]).p);
  }
});

test('the sign test: the exact two-sided p of the split, ties left out', () => {
  assert.equal(signTest([]), { below: 0, above: 0, p: 1 });
  assert.equal(signTest([1, -1, 0]), { below: 1, above: 1, p: 1 });
  // 8 of 8 on one side: 2 / 256.
  assert.equal(signTest([-1, -2, -3, -4, -5, -6, -7, -8]), { below: 8, above: 0, p: 2 / 256 });
  // 6 of 8: 2 * (1 + 8 + 28) / 256 = 0.289...
  assert.is(signTest([-1, -1, -1, -1, -1, -1, 2, 2]).p, (2 * 37) / 256);
  // 7 of 8: 2 * 9 / 256.
  assert.is(signTest([5, 5, 5, 5, 5, 5, 5, -5]).p, 18 / 256);
  assert.equal(signTest([3, 4]), { below: 0, above: 2, p: 0.5 });
});

test.run();
