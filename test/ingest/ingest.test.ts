// Incremental behaviour end to end: real files written while the real watcher, worker pool and
// SQLite index run. Each step checks what the index shows, and the line stats prove what was (not) re-read.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { QueryScope } from '../../src/index-db/types.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { startIndexing, type Indexing } from '../helpers/pipeline.ts';
import { waitFor, sleep } from '../helpers/wait.ts';

const allTime = (): QueryScope => ({
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.now(),
});

let n = 0;
function assistant(sessionId: string, output: number, ts = '2026-11-20T10:00:00.000Z'): string {
  n++;
  return `${JSON.stringify({
    type: 'assistant',
    sessionId,
    cwd: '/home/dev/alpha',
    timestamp: ts,
    requestId: `req_${n}`,
    message: { id: `msg_${n}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 100, output_tokens: output } },
  })}\n`;
}

interface Ctx extends Indexing {
  logs: string[];
}

async function start(projects: string, dbFile: string): Promise<Ctx> {
  const logs: string[] = [];
  return { ...(await startIndexing(projects, { file: dbFile, log: (m) => void logs.push(m) })), logs };
}

const count = (ctx: Ctx, session: string): number => ctx.index.queries.session(session, allTime())?.messageCount ?? 0;

const Ingest = suite('ingest');

Ingest('append, half-written line, truncate, delete, new project, restart, corrupt index', async () => {
  const { dir, cleanup } = tempDir('cost-ingest-');
  const projects = path.join(dir, 'projects');
  const file = path.join(projects, '-home-dev-alpha', 's1.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, assistant('s1', 10) + assistant('s1', 20));
  const dbFile = path.join(dir, 'index.db');
  let ctx = await start(projects, dbFile);
  try {
    assert.is(count(ctx, 's1'), 2, 'start-up scan');
    assert.is(ctx.pipeline.ingest.progress().done, true);

    fs.appendFileSync(file, assistant('s1', 30));
    await waitFor(() => count(ctx, 's1') === 3, 'appended line');

    // Half-written line: not counted until its newline arrives, then counted once.
    const half = assistant('s1', 40);
    fs.appendFileSync(file, half.slice(0, 40));
    await sleep(400);
    assert.is(count(ctx, 's1'), 3, 'half line waits');
    fs.appendFileSync(file, half.slice(40));
    await waitFor(() => count(ctx, 's1') === 4, 'completed line');
    const linesBefore = ctx.index.stats().lines;
    assert.is(linesBefore, 4, 'every line read exactly once');

    // Truncate and rewrite: the file is read from scratch, its old rows are gone.
    fs.writeFileSync(file, assistant('s1', 99));
    await waitFor(() => count(ctx, 's1') === 1, 'rewritten file').catch((e: Error) => { throw new Error(`${e.message}; count ${count(ctx, 's1')}; logs: ${ctx.logs.join(' | ')}`); });
    assert.ok(ctx.logs.some((l) => l.includes('re-reading')), 'rewrite is logged');

    // A new project folder appearing while running is picked up.
    const other = path.join(projects, '-home-dev-beta', 's2.jsonl');
    fs.mkdirSync(path.dirname(other), { recursive: true });
    fs.writeFileSync(other, assistant('s2', 5));
    await waitFor(() => count(ctx, 's2') === 1, 'new project');

    // Delete: history outlives the file.
    fs.rmSync(other);
    await waitFor(() => ctx.index.stats().filesGone === 1, 'file marked gone');
    assert.is(count(ctx, 's2'), 1, 'deleted file keeps its rows');

    // Restart on the same index: nothing is parsed again.
    const lines = ctx.index.stats().lines;
    await ctx.stop();
    ctx = await start(projects, dbFile);
    assert.is(ctx.index.stats().lines, lines, 'restart reads no line again');
    assert.is(count(ctx, 's1'), 1);
    assert.is(count(ctx, 's2'), 1, 'history of the deleted file survives a restart');

    // Corrupt index: rebuilt from the transcripts (the deleted file's history cannot come back).
    await ctx.stop();
    fs.writeFileSync(dbFile, Buffer.from('this is not a sqlite database at all, just junk bytes'.repeat(200)));
    for (const ext of ['-wal', '-shm']) fs.rmSync(dbFile + ext, { force: true });
    ctx = await start(projects, dbFile);
    assert.ok(ctx.logs.some((l) => /rebuil/i.test(l)), `a log line says the index was rebuilt: ${ctx.logs.join(' | ')}`);
    assert.is(count(ctx, 's1'), 1, 'rebuilt from the transcripts');
  } finally {
    await ctx.stop().catch(() => undefined);
    cleanup();
  }
});

Ingest('a burst of appends to one file is coalesced and fully read', async () => {
  const { dir, cleanup } = tempDir('cost-burst-');
  const projects = path.join(dir, 'projects');
  const file = path.join(projects, '-home-dev-alpha', 's3.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  const ctx = await start(projects, path.join(dir, 'index.db'));
  try {
    for (let i = 0; i < 200; i++) fs.appendFileSync(file, assistant('s3', i + 1));
    await waitFor(() => count(ctx, 's3') === 200, '200 appended lines', 10_000);
    assert.is(ctx.index.stats().lines, 200, 'no line read twice');
  } finally {
    await ctx.stop();
    cleanup();
  }
});

Ingest('a project folder moved out of projects: its transcripts, a subagent\'s included, are marked gone and keep their rows', async () => {
  const { dir, cleanup } = tempDir('cost-moved-');
  const projects = path.join(dir, 'projects');
  const folder = path.join(projects, '-home-dev-alpha');
  fs.mkdirSync(path.join(folder, 's5', 'subagents'), { recursive: true });
  fs.writeFileSync(path.join(folder, 's5.jsonl'), assistant('s5', 1));
  fs.writeFileSync(path.join(folder, 's5', 'subagents', 'agent-a.jsonl'), assistant('s5', 2));
  fs.mkdirSync(path.join(projects, '-home-dev-beta'));
  fs.writeFileSync(path.join(projects, '-home-dev-beta', 's6.jsonl'), assistant('s6', 3));
  const ctx = await start(projects, path.join(dir, 'index.db'));
  try {
    await ctx.pipeline.watching;
    assert.is(count(ctx, 's5'), 2);
    fs.renameSync(folder, path.join(dir, 'archived'));
    await waitFor(() => ctx.index.stats().filesGone === 2, 'both files marked gone', 10_000);
    assert.is(count(ctx, 's5'), 2, 'their rows stay');
    assert.is(count(ctx, 's6'), 1, 'the other folder untouched');
  } finally {
    await ctx.stop();
    cleanup();
  }
});

Ingest('a file first seen shorter than the head fingerprint is not mistaken for a rewrite when it grows', async () => {
  const { dir, cleanup } = tempDir('cost-head-');
  const projects = path.join(dir, 'projects');
  const file = path.join(projects, '-home-dev-alpha', 's4.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{}\n'); // 3 bytes: the cursor's head is 3 bytes long
  const ctx = await start(projects, path.join(dir, 'index.db'));
  try {
    fs.appendFileSync(file, assistant('s4', 1));
    await waitFor(() => count(ctx, 's4') === 1, 'the appended line');
    assert.not.ok(ctx.logs.some((l) => l.includes('re-reading')), `no rewrite: ${ctx.logs.join(' | ')}`);
    assert.is(ctx.index.stats().lines, 2, 'each line read once');
  } finally {
    await ctx.stop();
    cleanup();
  }
});

Ingest.run();
