// A first index reads the transcripts newest first (src/ingest/scan-order.ts): over a generated history whose listing
// puts the newest files last, a real server answers `final: true` for today long before the index is done, with the
// figures the finished index has, and `indexing.finalSince` moves back in time as the scan goes. The pool is the real
// one behind a gate the test opens one task at a time, so every step is observed without racing the machine's load.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
// A fixed offset that puts the local time near 20:00: today then holds most of the generated day (the generator's
// last entries are ~3 h before now) whatever the hour the test runs at. Etc/GMT signs are inverted.
const offset = ((20 - new Date().getUTCHours() + 36) % 24) - 12;
process.env.TZ = offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { TranscriptPaths } from '../../src/ingest/discovery.ts';
import { WEEK_MS } from '../../src/ingest/ingest.ts';
import { startPipeline } from '../../src/ingest/pipeline.ts';
import { createPool, type WorkerPool } from '../../src/ingest/pool.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { Overview } from '../../src/shared/api-types.ts';
import type { ParseTask, UsageBatch } from '../../src/workers/protocol.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE, SHARED } from '../helpers/paths.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const test = suite('newest first');

/**
 * A small generated history (one project folder) whose session files are renamed so that name order, the listing's,
 * is oldest first: `0001-<id>.jsonl` for the oldest. A session's subagents folder is renamed with it.
 */
function oldestListedFirst(): string {
  const out = tempDir('newest-first-').dir;
  const end = new Date(Date.now() - 3 * 3_600_000).toISOString();
  execFileSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', out, '--mb', '24', '--days', '8', '--seed', '7', '--projects', '1', '--end', end], { stdio: 'ignore' });
  const projects = path.join(out, 'projects');
  for (const project of fs.readdirSync(projects)) {
    const dir = path.join(projects, project);
    const sessions = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => ({ n, mtime: fs.statSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => a.mtime - b.mtime);
    sessions.forEach(({ n }, i) => {
      const id = n.slice(0, -'.jsonl'.length);
      const renamed = `${String(i).padStart(4, '0')}-${id}`;
      fs.renameSync(path.join(dir, n), path.join(dir, `${renamed}.jsonl`)); // a rename keeps the mtime
      if (fs.existsSync(path.join(dir, id))) fs.renameSync(path.join(dir, id), path.join(dir, renamed));
    });
  }
  return projects;
}

/** The real pool, each task held until the test lets one through. */
function gatedPool(real: WorkerPool): { pool: WorkerPool; letOne(): void; waiting(): number } {
  const held: (() => void)[] = [];
  return {
    pool: {
      threads: real.threads,
      warm: () => real.warm(),
      release: () => real.release(),
      close: () => real.close(),
      parse: async (task: ParseTask): Promise<UsageBatch> => {
        await new Promise<void>((resolve) => held.push(resolve));
        return real.parse(task);
      },
    },
    letOne: () => held.shift()?.(),
    waiting: () => held.length,
  };
}

const figures = (o: Overview) => ({ totals: o.totals, today: o.today, costByModel: o.costByModel, costSeries: o.costSeries });

test('today is final before the index is done, with the finished index figures, and finalSince moves back', async () => {
  const projects = oldestListedFirst();
  const paths = new TranscriptPaths();
  const listed = await paths.list([projects]);
  const sessions = listed.filter((f) => !f.path.includes(`${path.sep}subagents${path.sep}`));
  const newest = Math.max(...listed.map((f) => f.mtimeMs));
  assert.ok(sessions.length >= 8, `a history of several sessions (${sessions.length})`);
  assert.is(sessions.at(-1)!.mtimeMs, Math.max(...sessions.map((f) => f.mtimeMs)), 'the premise: the newest session is listed last');

  const index = openIndex(':memory:');
  index.setPrices(PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture', 'auto'));
  const gate = gatedPool(createPool({ threads: 1 }));
  // What the scan writes into the index file for the statusline (IndexDb.setFinalSince).
  const stored: (string | null)[] = [];
  const recording = { ...index, setFinalSince: (iso: string | null) => void (stored.push(iso), index.setFinalSince(iso)) };
  const pipeline = await startPipeline({ projectsDirs: [projects], index: recording, log: () => undefined, prepared: Promise.resolve({ paths, listed, pool: gate.pool }) });
  let server: TestServer | null = null;
  try {
    server = await startServer({ index, indexing: () => pipeline.ingest.progress() });
    const s = server;
    const overview = async (range: string): Promise<Overview> => {
      await s.request('/api/refresh', { method: 'POST' }); // each step computes its answer
      const r = await s.request(`/api/overview?range=${range}`);
      assert.is(r.status, 200);
      assert.is(r.headers['x-cost-final'], String(r.json<Overview>().final));
      return r.json<Overview>();
    };

    // The rule itself: finalSince is just after the newest transcript not yet read (scan-order.ts).
    const ruleHolds = (o: Overview, step: number): number => {
      const since = Date.parse(o.indexing.finalSince!);
      const unread = listed.filter((f) => index.cursorOf(f.path)?.size !== f.size);
      assert.is(since, Math.floor(Math.max(...unread.map((f) => f.mtimeMs))) + 1, `finalSince at step ${step}`);
      return since;
    };
    const first = await overview('today');
    assert.is(first.indexing.done, false);
    ruleHolds(first, 0);
    assert.is(first.final, false, 'nothing read yet: today is not final');

    const sinces: number[] = [];
    let todayFinal: { at: number; figures: ReturnType<typeof figures> } | null = null;
    const finalAnswers: ReturnType<typeof figures>[] = [];
    let weekFinalAt: number | null = null;
    // The server collects its heap near its live size from then on (main/index.ts): the ingest says when.
    let weekResolved = false;
    void pipeline.ingest.weekFinal().then(() => (weekResolved = true));
    let weekResolvedAt: number | null = null;
    for (let step = 1; !pipeline.ingest.progress().done; step++) {
      const before = pipeline.ingest.progress().filesDone;
      await waitFor(() => gate.waiting() > 0 || pipeline.ingest.progress().done, 'a task at the gate', 30_000);
      gate.letOne();
      await waitFor(() => pipeline.ingest.progress().filesDone > before || pipeline.ingest.progress().done, `file ${step} read`, 30_000);
      const today = await overview('today');
      if (today.indexing.done) break;
      const since = ruleHolds(today, step);
      sinces.push(since);
      assert.is(weekResolved, since <= Date.now() - WEEK_MS, `weekFinal() at step ${step}: resolved once a week back is final, not before`);
      if (weekResolved) weekResolvedAt ??= step;
      if (today.final) finalAnswers.push(figures(today));
      if (today.final && !todayFinal) todayFinal = { at: step, figures: figures(today) };
      if (!today.final) assert.is(todayFinal, null, 'final stays final');
      if ((await overview('7')).final) weekFinalAt ??= step;
    }
    await pipeline.ingest.idle();
    const done = await overview('today');
    assert.is(done.indexing.done, true);
    assert.is(done.final, true);
    assert.is((await overview('all')).final, true);

    assert.ok(todayFinal, 'today became final while the index was built');
    assert.ok(todayFinal.at < listed.length / 2, `today final after ${todayFinal.at} of ${listed.length} files`);
    assert.ok(done.today && done.today.messages > 0, 'the history has entries today');
    assert.equal(todayFinal.figures, figures(done), "today's figures when it became final are the finished index's");
    for (const answer of finalAnswers) assert.equal(answer, figures(done), 'every answer marked final has the final figures');
    assert.ok(weekFinalAt !== null && weekFinalAt >= todayFinal.at, 'seven days became final after today');
    assert.ok(weekResolvedAt !== null && weekResolvedAt >= weekFinalAt, `weekFinal() resolved while the index was built, at step ${weekResolvedAt}`);
    for (let i = 1; i < sinces.length; i++) assert.ok(sinces[i]! <= sinces[i - 1]!, 'finalSince never moves forward');
    assert.ok(sinces.at(-1)! < sinces[0]!, 'finalSince moved back in time');
    assert.ok(sinces[0]! <= Math.floor(newest) + 1, 'the first bound is at most the newest transcript');
    // The file: the bound at the first read, then (at most once a second) later ones, never more final; cleared at the end.
    assert.is(stored[0], new Date(Math.floor(newest) + 1).toISOString());
    assert.is(stored.at(-1), null);
    const times = stored.slice(0, -1).map((iso) => Date.parse(iso!));
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! <= times[i - 1]!, 'the stored bound never moves forward');
    assert.ok(times.every((t) => t >= sinces.at(-1)!), 'never more final than the API said');
  } finally {
    for (let i = 0; i < listed.length; i++) gate.letOne();
    await server?.close();
    await pipeline.close();
    index.close();
  }
});

test.run();
