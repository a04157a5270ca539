// A new catalogue that changes the main model's price, over a real index file and a real server on loopback: the
// reprice is many short writes (a chunk of row ids each) and the server answers between them; meanwhile no answer is
// final and none from before is served after; the end figures equal those of an index made from scratch under the new
// catalogue; an index closed halfway goes on with the reprice at its next start.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import type { IndexDb } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { tempDir, usageLine, writeJsonl, type Line } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { openKeyed } from '../helpers/sqlite.ts';

const MAIN = 'claude-sonnet-4-5-20250929';
const SMALL = 'claude-haiku-4-5-20251001';
/** Row ids per chunk: a history of ~1,900 rows is some 30 chunks. */
const CHUNK = 64;
const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, Record<string, number>>;
const dearer = structuredClone(catalogue);
dearer[MAIN] = { ...dearer[MAIN]!, input_cost_per_token: 6e-6, output_cost_per_token: 3e-5, cache_read_input_token_cost: 6e-7 };
const NEW = PriceTable.fromCatalogue(dearer, 'main model dearer');
const ROUTES = ['/api/overview?range=all', '/api/overview?range=7', '/api/insights?range=365', '/api/monthly', '/api/projects?range=all', '/api/sessions?range=all'];

/** Every server's clock: figures over the same instant. */
const NOW = Date.now();
const { dir } = tempDir('reprice-');
const root = path.join(dir, 'projects');

/** 3 projects x 4 sessions x 150 responses over the last ~60 days (the main model two in three), and worse copies. */
function writeHistory(): void {
  let n = 0;
  for (let p = 0; p < 3; p++) {
    for (let s = 0; s < 4; s++) {
      const lines: Line[] = [];
      for (let i = 0; i < 150; i++, n++) {
        lines.push(usageLine({
          sessionId: `s${p}-${s}`, messageId: `m${p}-${s}-${i}`, requestId: `r${p}-${s}-${i}`, model: i % 3 ? MAIN : SMALL,
          input: 100 + i + 37 * p, output: 50 + 7 * i + 3 * s, cacheRead: 1000 * i, cacheCreate: i % 5 ? 0 : 2000, tools: i % 4 ? [] : ['Bash'],
          timestamp: new Date(NOW - n * 29 * 60_000).toISOString(), cwd: `/home/dev/p${p}`,
        }));
      }
      writeJsonl(path.join(root, `-home-dev-p${p}`, `s${p}-${s}.jsonl`), lines);
    }
  }
  // Copies with less output in another project's file: alternates, repriced with their model.
  const copies = Array.from({ length: 100 }, (_, i) => usageLine({
    sessionId: 'copy', messageId: `m0-0-${i}`, requestId: `r0-0-${i}`, model: i % 3 ? MAIN : SMALL, input: 100 + i, output: 1,
    timestamp: new Date(NOW - i * 29 * 60_000).toISOString(), cwd: '/home/dev/copy',
  }));
  writeJsonl(path.join(root, '-home-dev-copy', 'copy.jsonl'), copies);
}
writeHistory();

/** Every figure of the routes, through a server on `index`. */
async function answers(s: TestServer): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const route of ROUTES) {
    const r = await s.request(route);
    assert.is(r.status, 200, route);
    out.push(r.json());
  }
  return out;
}

/** What differs between two servers: their own state. */
const UNLIKE = new Set(['indexing', 'health', 'dirs']);

/** Deep equality, costs within 1e-9 (a reprice adds each row's change; a fresh index sums the new costs). */
function near(a: unknown, b: unknown, at: string): void {
  if (typeof a === 'number' && typeof b === 'number') {
    assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${at}: ${a} != ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    assert.is(a.length, b.length, `${at}: length`);
    a.forEach((x, i) => near(x, b[i], `${at}[${i}]`));
  } else if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    assert.equal(ka, Object.keys(b).sort(), `${at}: keys`);
    for (const k of ka) if (!UNLIKE.has(k)) near((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
  } else {
    assert.is(a, b, at);
  }
}

/** Every stored copy's cost by its key: exactly the new table's (cd_cost of the same row). */
function storedCosts(file: string): { t: string; key: string; off: number; cost: number }[] {
  const db = openKeyed(file, { readonly: true });
  try {
    return db.prepare(`SELECT 'message' AS t, unpack_key(stored_key) AS key, off, cost FROM messages UNION ALL SELECT 'alternate', unpack_key(stored_key), off, cost FROM alternates
      ORDER BY 1, 2, 3`).all() as { t: string; key: string; off: number; cost: number }[];
  } finally {
    db.close();
  }
}

let scratch: { index: IndexDb; server: TestServer; file: string } | null = null;
/** The history indexed from scratch under the new catalogue, served. */
async function fromScratch(): Promise<{ index: IndexDb; server: TestServer; file: string }> {
  if (scratch) return scratch;
  const file = path.join(dir, 'scratch.db');
  const index = await indexDir(root, { file, table: NEW });
  // Committed, so that a second connection (storedCosts) reads it.
  (index as IndexDb & { commit(): boolean }).commit();
  scratch = { index, server: await startServer({ index, now: () => NOW }), file };
  return scratch;
}

test('the server answers between the chunks of a reprice, none final, and the end figures are a fresh index\'s', async () => {
  const file = path.join(dir, 'live.db');
  const index = await indexDir(root, { file, repriceChunkRows: CHUNK });
  const s = await startServer({ index, now: () => NOW });
  try {
    const before = await answers(s);
    assert.is((before[0] as { final: boolean }).final, true);
    const rows = storedCosts(file).length;
    const from = index.generation();
    index.setPrices(NEW);
    assert.ok(index.repricing(), 'a history of many chunks is not repriced at once');
    // Requests one after the other while the chunks run: each is answered between two chunks.
    const during: { generation: number; final: boolean; done: boolean }[] = [];
    while (index.repricing()) {
      const r = await s.request('/api/overview?range=all');
      const body = r.json<{ final: boolean; indexing: { done: boolean } }>();
      during.push({ generation: Number(r.headers['x-index-generation']), final: body.final, done: body.indexing.done });
    }
    const to = index.generation();
    // One write a chunk: at least one per CHUNK row ids of messages and alternates.
    assert.ok(to - from >= Math.floor(rows / CHUNK), `${to - from} writes for ${rows} rows`);
    const between = during.filter((d) => d.generation > from && d.generation < to);
    assert.ok(between.length >= 3, `answers between chunks: ${between.length}`);
    for (const d of between) assert.equal([d.final, d.done], [false, false], 'an answer during the reprice is not final');
    for (let i = 1; i < during.length; i++) assert.ok(during[i]!.generation >= during[i - 1]!.generation, 'generations only move on');
    // After: final, and no answer from during the reprice is served (the figures are the fresh index's).
    const after = await answers(s);
    assert.is((after[0] as { final: boolean }).final, true);
    const fresh = await fromScratch();
    near(after, await answers(fresh.server), 'answers');
    assert.equal(storedCosts(file), storedCosts(fresh.file), 'every stored cost is the new table\'s');
    assert.not.equal(before, after, 'the main model\'s new price changed the figures');
  } finally {
    await s.close();
    index.close();
  }
});

test('an index closed halfway through a reprice says so to a reader and finishes it at its next start', async () => {
  const file = path.join(dir, 'halfway.db');
  const first = await indexDir(root, { file, repriceChunkRows: CHUNK });
  first.setPrices(NEW);
  assert.ok(first.repricing());
  first.close();
  const reader = openIndexReader(file);
  assert.ok(reader.repricing(), 'meta records the reprice under way');
  reader.close();
  const again = openIndex(file, { log: () => {}, repriceChunkRows: CHUNK });
  const s = await startServer({ index: again, now: () => NOW });
  try {
    assert.ok(again.repricing());
    assert.is((await s.request('/api/overview?range=7')).json<{ final: boolean }>().final, false, 'not final before it goes on');
    // The same catalogue again (the fingerprint already says it): the reprice goes on where it stopped.
    again.setPrices(NEW);
    await waitFor(() => !again.repricing(), 'the reprice to finish', 20_000);
    const fresh = await fromScratch();
    near(await answers(s), await answers(fresh.server), 'answers');
    assert.equal(storedCosts(file), storedCosts(fresh.file));
  } finally {
    await s.close();
    again.close();
  }
});

test.after(async () => {
  if (scratch) {
    await scratch.server.close();
    scratch.index.close();
  }
});

test.run();
