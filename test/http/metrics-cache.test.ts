// GET /metrics over a big history costs what changed since the last scrape: the counters' text and the retention
// gauges' file list (with each file's cost from its rollup row, never its messages) are read again only once the index
// moved (its generation), and then they follow it; a scrape reads no file but the cleanup settings. Over a real server and a real index, whose queries count the reads they are
// asked for.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import type { IndexDb, Queries } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.UTC(2026, 0, 10, 12);
const DAY = 86_400_000;

/** The index with queries that count the counters' and the file lists' reads. */
function counted(index: IndexDb): { index: IndexDb; reads: { series: number; fileLists: number } } {
  const reads = { series: 0, fileLists: 0 };
  const q = index.queries;
  const queries: Queries = {
    ...q,
    metrics(now, series) {
      if (series !== false) reads.series++;
      return q.metrics(now, series);
    },
    retention: {
      ...q.retention,
      dirFiles(dir, zone) {
        reads.fileLists++;
        return q.retention.dirFiles(dir, zone);
      },
    },
  };
  return { index: { ...index, queries }, reads };
}

/** A real server over an empty in-memory index whose counted reads `run` sees; both closed after it. */
async function withCountedServer(run: (s: TestServer, real: IndexDb, reads: { series: number; fileLists: number }) => Promise<void>): Promise<void> {
  const real = openIndex(':memory:');
  real.setPrices(PriceTable.builtin());
  const { index, reads } = counted(real);
  const s = await startServer({ index, now: () => NOW });
  try {
    await run(s, real, reads);
  } finally {
    await s.close();
    real.close();
  }
}

/** One session file in the server's config dir, last modified `ageDays` ago, read into the index. */
function add(s: TestServer, index: IndexDb, session: string, ageDays: number, output: number): void {
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, '-home-dev-alpha', `${session}.jsonl`), [
    usageLine({ sessionId: session, messageId: `m-${session}`, requestId: `r-${session}`, timestamp: new Date(NOW - ageDays * DAY).toISOString(), output }),
  ]);
  const mtime = new Date(NOW - ageDays * DAY);
  fs.utimesSync(file, mtime, mtime);
  ingestFile(index, file, sessionRole('-home-dev-alpha', session));
}

const total = (text: string, name: string): number =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `)).reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

test('a scrape of an unchanged index reads no series and no file list again; one after a write reads them anew', () =>
  withCountedServer(async (s, real, reads) => {
    // Due for Claude Code's cleanup (default 30 days): the gauges need its cost.
    add(s, real, 'old', 40, 100);
    const first = (await s.request('/metrics')).text;
    assert.equal(reads, { series: 1, fileLists: 1 });
    assert.is(total(first, 'cost_dashboard_messages_total'), 1);
    const dueCost = total(first, 'cost_dashboard_cleanup_due_cost_usd');
    assert.ok(dueCost > 0);
    const second = (await s.request('/metrics')).text;
    assert.equal(reads, { series: 1, fileLists: 1 }, 'nothing read again');
    assert.is(second, first);

    add(s, real, 'older', 50, 300);
    const third = (await s.request('/metrics')).text;
    assert.equal(reads, { series: 2, fileLists: 2 }, 'the index moved: the list read again');
    assert.is(total(third, 'cost_dashboard_messages_total'), 2, 'the new entry counted');
    const bothDue = total(third, 'cost_dashboard_cleanup_due_cost_usd');
    assert.ok(bothDue > dueCost, 'and its file due');
    // Both files are due: what they cost is every entry's cost, as the counters sum it.
    assert.ok(Math.abs(bothDue - total(third, 'cost_dashboard_cost_usd_total')) < 1e-12);
  }));

test('a write no query reads (the finalSince of a scan, for the statusline) moves no generation: nothing is read again', () =>
  withCountedServer(async (s, real, reads) => {
    add(s, real, 'old', 40, 100);
    const first = (await s.request('/metrics')).text;
    const generation = real.generation();
    real.setFinalSince(new Date(NOW).toISOString());
    real.setFinalSince(null);
    assert.is(real.generation(), generation);
    assert.is((await s.request('/metrics')).text, first);
    assert.equal(reads, { series: 1, fileLists: 1 }, 'the counters and the file list kept');
  }));

test('a scrape reads no file but the cleanup settings of each dir: not the kept folder, not the backup note', async () => {
  const keep = tempDir().dir;
  fs.mkdirSync(path.join(keep, 'projects', '-home-dev-alpha'), { recursive: true });
  fs.writeFileSync(path.join(keep, 'projects', '-home-dev-alpha', 'kept.jsonl'), '{}\n');
  const real = openIndex(':memory:');
  real.setPrices(PriceTable.builtin());
  const s = await startServer({ index: real, now: () => NOW, keepDir: keep });
  const calls: string[] = [];
  const saved = { readFileSync: fs.readFileSync, readdirSync: fs.readdirSync, statSync: fs.statSync };
  try {
    add(s, real, 'old', 40, 100);
    // The kept folder is walked for GET /api/retention, as before.
    assert.is((JSON.parse((await s.request('/api/retention')).text) as { kept: { files: number } }).kept.files, 1);
    await s.request('/metrics');
    Object.assign(fs, {
      readFileSync: (...a: Parameters<typeof fs.readFileSync>) => (calls.push(`read ${String(a[0])}`), saved.readFileSync(...a)),
      readdirSync: (...a: Parameters<typeof fs.readdirSync>) => (calls.push(`list ${String(a[0])}`), saved.readdirSync(...a)),
      statSync: (...a: Parameters<typeof fs.statSync>) => (calls.push(`stat ${String(a[0])}`), saved.statSync(...a)),
    });
    const text = (await s.request('/metrics')).text;
    Object.assign(fs, saved);
    assert.ok(total(text, 'cost_dashboard_cleanup_due_sessions') > 0, 'the gauges are there');
    assert.equal(calls, [`read ${path.join(s.config.dirs[0]!, 'settings.json')}`]);
  } finally {
    Object.assign(fs, saved);
    await s.close();
    real.close();
  }
});

test.run();
