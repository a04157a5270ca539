// The server as a process compacts a first index on a worker thread (index-db/write/compact.ts) and answers meanwhile:
// a request sent while the compaction holds the write lock is answered before it ends, a budget saved meanwhile waits
// for it (asynchronously) and is kept, a transcript appended meanwhile lands after it, and the file ends rewritten
// smaller. The compaction is held as long as the test needs by COST_COMPACT_TEST_GATE (the worker holds the write lock,
// as its VACUUM does, until the gate file exists): the checks are of the order of events, never of durations. A stop
// during a compaction waits for it and leaves the index whole.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { spawnServer, standaloneEnv, type ServerProcess } from '../helpers/server-process.ts';
import { sqlValue } from '../helpers/sqlite.ts';

const test = suite('the server compacts on a worker thread');
const MIN = 2000;
/** The corpus's messages: three times the threshold. */
const TOTAL = 6000;
const T_END = Date.UTC(2026, 10, 20);
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001'];

/** A transcript of `count` assistant lines, an hour apart, ending `from` hours before T_END. */
function transcript(cfg: string, project: string, name: string, from: number, count: number): void {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({
    type: 'assistant', timestamp: new Date(T_END - (from + count - i) * 3_600_000).toISOString(), sessionId: name, requestId: `req_${name}_${i}`,
    message: { id: `msg_${name}_${i}`, model: MODELS[i % 3], usage: { input_tokens: 5 + i, output_tokens: 7 + i, cache_read_input_tokens: 100 * i } },
  }));
  const folder = path.join(cfg, 'projects', project);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${name}.jsonl`), `${lines.join('\n')}\n`);
}

/** 12 transcripts over 4 projects, 6000 messages: a first index newest first, three times the threshold. */
function corpus(dir: string): string {
  const cfg = path.join(dir, 'cfg');
  for (let f = 0; f < 12; f++) transcript(cfg, `p${f % 4}`, `s${f}`, f * 500, 500);
  return cfg;
}

/** A compacting server: its config dir, index file, gate file and process. */
interface Compacting {
  cfg: string;
  index: string;
  gate: string;
  server: ServerProcess;
}

/**
 * A server over a fresh corpus whose first index makes a compaction due, held until the gate file exists; `run` gets
 * it. Its output is printed when `run` fails; the process (killed if still running) and the folder go afterwards.
 */
async function withCompactingServer(prefix: string, run: (c: Compacting) => Promise<void>): Promise<void> {
  const { dir, cleanup } = tempDir(prefix);
  const cfg = corpus(dir);
  const index = path.join(dir, 'index.db');
  const gate = path.join(dir, 'gate');
  const server = await spawnServer({
    args: ['--port', '0', '--dir', cfg, '--index', index, '--offline', '--prices', PRICES_FILE],
    env: standaloneEnv({ TZ: 'UTC', COST_COMPACT_MIN_MESSAGES: String(MIN), COST_COMPACT_TEST_GATE: gate }),
    cwd: dir,
  });
  try {
    await run({ cfg, index, gate, server });
  } catch (err) {
    process.stderr.write(server.output());
    throw err;
  } finally {
    if (server.child.exitCode === null) await server.stop('SIGKILL');
    cleanup();
  }
}

const messages = (index: string): number => sqlValue(index, 'SELECT count(*) FROM messages') as number;

/** Polls `fn` until it holds (a condition the server reaches in its own time; fails after `ms`). */
async function until(fn: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('answers while it compacts; a budget and an appended transcript wait for the compaction, then land', () =>
  withCompactingServer('compact-server-', async ({ cfg, index, gate, server }) => {
    const events: string[] = [];
    await server.logged(/compacting the index \(6000 new messages, 0 before them\)/);
    const pages = sqlValue(index, 'PRAGMA page_count') as number;
    assert.is(messages(index), TOTAL, 'the first index committed before the compaction');
    const base = `http://localhost:${server.port}`;
    // A settings write sent now waits for the compaction: never answered while the gate is closed.
    const saved = fetch(`${base}/api/budgets`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ period: 'monthly', project: null, amount: 42 }),
    }).then((r) => {
      events.push('budget saved');
      return r;
    });
    const overview = await fetch(`${base}/api/overview?range=7`);
    assert.is(overview.status, 200);
    assert.ok(((await overview.json()) as { cost?: unknown }) !== null);
    events.push('overview answered');
    // Appended while the compaction holds the lock: the watcher sees it, its batch waits.
    transcript(cfg, 'p0', 'late', 0, 100);
    fs.appendFileSync(path.join(cfg, 'projects', 'p1', 's1.jsonl'), `${JSON.stringify({
      type: 'assistant', timestamp: new Date(T_END).toISOString(), sessionId: 's1', requestId: 'req_s1_more',
      message: { id: 'msg_s1_more', model: MODELS[0], usage: { input_tokens: 1, output_tokens: 2 } },
    })}\n`);
    const again = await fetch(`${base}/api/overview?range=30`);
    assert.is(again.status, 200, 'answered again, the compaction still held');
    events.push('overview answered');
    await new Promise((resolve) => setTimeout(resolve, 1000)); // time for the watcher to report the appends
    assert.is(messages(index), TOTAL, 'nothing written while the compaction holds the lock');
    events.push('gate opened');
    fs.writeFileSync(gate, '');
    await server.logged(/compacted the index in/);
    const r = await saved;
    assert.is(r.status, 200, 'the budget saved once the compaction ended');
    assert.equal(events, ['overview answered', 'overview answered', 'gate opened', 'budget saved']);
    await until(() => messages(index) === TOTAL + 101, 'the appended lines');
    const after = sqlValue(index, 'PRAGMA page_count') as number;
    assert.ok(after < pages, `rewritten smaller: ${pages} -> ${after} pages`);
    const budgets = (await (await fetch(`${base}/api/budgets`)).json()) as { budgets: { amount: number }[] };
    assert.equal(budgets.budgets.map((b) => b.amount), [42]);
    assert.not.match(server.stderr(), /refused|index write failed|not compacted/);
    assert.is(await server.stop(), 0);
  }));

test('a stop during the compaction waits for it and leaves the index whole', () =>
  withCompactingServer('compact-stop-', async ({ index, gate, server }) => {
    await server.logged(/compacting the index/);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.is(server.child.exitCode, null, 'still compacting: the stop waits');
    fs.writeFileSync(gate, '');
    assert.is(await server.exited, 0);
    assert.match(server.stderr(), /compacted the index in/);
    assert.is(sqlValue(index, 'PRAGMA quick_check'), 'ok');
    assert.is(messages(index), TOTAL);
    assert.is(sqlValue(index, "SELECT value FROM meta WHERE key = 'open'"), '0', 'closed cleanly');
  }));

test.run();
