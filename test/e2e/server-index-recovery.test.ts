// Issue 37, finding 2, on the real server: one bad page of derivable data (a rollup, an index b-tree) found by the
// first query after a clean shutdown costs no history. The cost of a transcript deleted since it was indexed and the
// budgets stay on the dashboard, the damaged file is kept aside, and the overview's health (and the page, in real
// Chromium) says what was recovered.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { damagePage, rootPage, sqlValue } from '../helpers/sqlite.ts';

const { dir } = tempDir('index-recovery-main-');
interface Overview { totals: { cost: number; messages: number }; indexing: { done: boolean }; health: { index?: string[] } }
const overview = (s: AppServer) => getJson<Overview>(s, '/api/overview?range=3650');
const line = (session: string, id: string, i: number) => ({
  type: 'assistant', timestamp: new Date(Date.now() - 3_600_000 + i * 1000).toISOString(), sessionId: session, requestId: `req-${id}`,
  cwd: '/home/u/proj', message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100 + i } },
});
const root = path.join(dir, 'cfg');
const kept = path.join(root, 'projects', '-home-u-proj', 'kept.jsonl');
const deleted = path.join(root, 'projects', '-home-u-proj', 'deleted.jsonl');
writeJsonl(kept, Array.from({ length: 20 }, (_, i) => line('kept', `k${i}`, i)));
writeJsonl(deleted, Array.from({ length: 30 }, (_, i) => line('deleted', `d${i}`, i)));

const Damaged = suite('derived data damaged after a clean shutdown');
const browser = suiteBrowser(Damaged);

Damaged('is recovered from the index itself: a deleted transcript\'s cost and the budgets stay, and the page says so', async () => {
  const index = path.join(dir, 'index.db');
  const first = await startAppServer({ dir: root, indexFile: index });
  let want: Overview['totals'];
  try {
    await untilIndexed(first, 30_000);
    want = (await overview(first)).totals;
  } finally {
    await first.close();
  }
  assert.is(want!.messages, 50);
  fs.rmSync(deleted); // its history is now only in the index
  const db = new Database(index);
  db.prepare("INSERT INTO settings (key, value) VALUES ('budget:monthly:*', '5')").run();
  db.close();
  for (const name of ['usage_total', 'usage_hourly', 'usage_hourly_model', 'usage_daily', 'projects_key']) damagePage(index, rootPage(index, name));

  const again = await startAppServer({ dir: root, indexFile: index });
  try {
    await fetch(`${again.url}/api/overview?range=3650`); // meets the damage
    await waitFor(() => /kept the damaged index as/.test(again.output()), 'the damaged file set aside', 15_000);
    let got: Overview | null = null;
    await waitFor(async () => {
      const res = await fetch(`${again.url}/api/overview?range=3650`);
      got = res.ok ? ((await res.json()) as Overview) : null;
      return got !== null && got.indexing.done && got.totals.messages === want.messages;
    }, 'the recovered index with every message', 30_000);
    const o = got! as Overview;
    assert.ok(Math.abs(o.totals.cost - want!.cost) < 1e-9, `${o.totals.cost} vs ${want!.cost}`);
    assert.match(JSON.stringify(await getJson(again, '/api/budgets')), /"amount":5\b/, 'the budget is still there');
    assert.is(o.health.index?.length, 1, JSON.stringify(o.health));
    assert.match(o.health.index![0]!, /^The index was found damaged on \d{4}-\d\d-\d\d and rebuilt from what it still held: 50 messages, .* nothing lost; .*The damaged file was kept as .*index\.db\.damaged-/);
    assert.match(again.output(), /50 messages, \d+ copies, \d+ files and 1 settings carried over, nothing lost/);
    // The dashboard shows the note above the figures (real Chromium).
    const page = await browser.page();
    await page.goto(`${again.url}/?view=overview&range=3650`);
    const note = page.locator('cost-overview-view .note.index');
    await note.waitFor();
    assert.match((await note.textContent()) ?? '', /The index was found damaged on .* nothing lost/);
    assert.equal(browser.problems, []);
  } finally {
    await again.close();
  }
  assert.is(fs.readdirSync(dir).filter((f) => /^index\.db\.damaged-[^-]/.test(f) && !/-(wal|shm)$/.test(f)).length, 1);
  assert.is(sqlValue(index, 'PRAGMA integrity_check'), 'ok');
});

Damaged.run();
