// Runs every test file under test/ (each in its own Node process, so servers, workers and
// browsers of one suite cannot leak into the next) and prints a last line `N passed, N failed, N skipped`.
// `node scripts/run-tests.mjs [filter...]` runs only the files whose path contains a filter.
// uvu has no skip: a test that cannot run prints a line `SKIP: <reason>` (test/helpers/skip.ts) and returns, so
// uvu counts it as passed; each such line moves one test from passed to skipped here.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (/\.test\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

const files = walk(path.join(root, 'test'))
  .map((f) => path.relative(root, f))
  .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
  .sort();

let passed = 0;
let failed = 0;
let skipped = 0;
const broken = [];
for (const file of files) {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    timeout: 20 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  // uvu's summary: "Total: N", "Passed: N", "Skipped: N"
  const total = Number(/Total:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const ok = Number(/Passed:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const reasons = [...out.matchAll(/^SKIP: (.*)$/gm)].map((m) => m[1]);
  const skips = Math.min(reasons.length, ok);
  let bad = total - ok;
  if (r.status !== 0 && bad === 0) bad = 1; // a crash or time-out with no uvu summary still counts as a failure
  passed += ok - skips;
  failed += bad;
  skipped += skips;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const tag = bad ? 'FAIL' : skips ? 'skip' : 'ok  ';
  console.log(`${tag} ${file} (${ok - skips}/${total}${skips ? `, ${skips} skipped` : ''}, ${secs}s)`);
  for (const why of reasons) console.log(`    skipped: ${why}`);
  if (bad) {
    broken.push(file);
    console.log(out.split('\n').map((l) => `    ${l}`).join('\n'));
  }
}
if (broken.length) console.log(`\nFailed files:\n${broken.map((f) => `  ${f}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
