// Issue 34 through the real built server (a child process) over a temp config dir with a real settings.json and
// transcripts given old modification times: the due counts follow the cleanup period, a deleted transcript's session
// moves to "kept only here" with its cost unchanged, /metrics has the gauges, and with --keep-transcripts a deleted and
// a rewritten transcript keep their content and a rebuild from the kept folder gives the same totals.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Overview, SessionDetail } from '../../src/shared/api-types.ts';
import type { Retention } from '../../src/shared/retention-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { waitFor } from '../helpers/wait.ts';

const DAY = 86_400_000;
const Retain = suite('retention');

interface Setup {
  cfg: string;
  project: string;
  kept: string;
  index: string;
  cleanup(): void;
}

/** A session transcript with a prompt and one usage line of cost `cost` (its own costUSD), modified `ageDays` ago. */
function session(project: string, sid: string, cost: number, ageDays: number, tsMs: number): string {
  const file = path.join(project, `${sid}.jsonl`);
  const ts = new Date(tsMs).toISOString();
  writeJsonl(file, [
    userLine(`prompt of ${sid}`, { sessionId: sid, timestamp: ts, uuid: `u-${sid}` }),
    usageLine({ sessionId: sid, messageId: `m-${sid}`, requestId: `r-${sid}`, timestamp: ts, extra: { costUSD: cost } }),
  ]);
  const mtime = new Date(Date.now() - ageDays * DAY);
  fs.utimesSync(file, mtime, mtime);
  return file;
}

function setup(): Setup {
  const tmp = tempDir('cost-retention-');
  const cfg = path.join(tmp.dir, 'claude');
  const project = path.join(cfg, 'projects', '-home-dev-alpha');
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(cfg, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 30, theme: 'dark' }));
  const now = Date.now();
  session(project, 'old', 1.25, 40, now - 41 * DAY);
  session(project, 'soon', 2.5, 26, now - 27 * DAY);
  session(project, 'fresh', 4, 0, now - 3600_000);
  return { cfg, project, kept: path.join(tmp.dir, 'kept'), index: path.join(tmp.dir, 'index.db'), cleanup: tmp.cleanup };
}

/** A deletion before the watcher is live is only seen by the periodic re-check: a new transcript read proves it is live. */
async function watcherLive(server: AppServer, s: Setup): Promise<void> {
  writeJsonl(path.join(s.project, 'probe.jsonl'), [userLine('probe', { sessionId: 'probe', timestamp: new Date().toISOString() })]);
  await waitFor(async () => (await fetch(`${server.url}/api/sessions/probe`)).ok, 'the watcher live', 15_000);
}

const retention = (server: AppServer): Promise<Retention> => getJson<Retention>(server, '/api/retention');
const setPeriod = (s: Setup, value: unknown): void => fs.writeFileSync(path.join(s.cfg, 'settings.json'), JSON.stringify({ cleanupPeriodDays: value }));

Retain('due counts follow the period; a deleted transcript is kept only here at its cost; the gauges; bad settings', async () => {
  const s = setup();
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: s.cfg, indexFile: s.index });
    await untilIndexed(server, 15_000);
    let r = await retention(server);
    assert.is(r.dirs.length, 1);
    const d = r.dirs[0]!;
    assert.is(d.dir, s.cfg);
    assert.is(d.cleanupPeriodDays, 30);
    assert.is(d.settingsError, null);
    assert.equal({ ...d.dueForCleanup, oldest: null }, { files: 1, sessions: 1, bytes: fs.statSync(path.join(s.project, 'old.jsonl')).size, cost: 1.25, oldest: null });
    assert.is(Date.parse(d.dueForCleanup.oldest!), Math.floor(fs.statSync(path.join(s.project, 'old.jsonl')).mtimeMs));
    assert.equal([d.dueWithin7Days.files, d.dueWithin7Days.sessions, d.dueWithin7Days.cost], [1, 1, 2.5]);
    assert.equal([d.onlyInIndex.sessions, d.onlyInIndex.messages, d.onlyInIndex.cost], [0, 0, 0]);
    assert.is(r.kept, null);
    assert.is(r.backup, null);

    // A shorter period makes the week-old-to-be transcript due now, a longer one nothing.
    setPeriod(s, 20);
    r = await retention(server);
    assert.equal([r.dirs[0]!.cleanupPeriodDays, r.dirs[0]!.dueForCleanup.files, r.dirs[0]!.dueForCleanup.cost, r.dirs[0]!.dueWithin7Days.files], [20, 2, 3.75, 0]);
    setPeriod(s, 90);
    r = await retention(server);
    assert.equal([r.dirs[0]!.dueForCleanup.files, r.dirs[0]!.dueWithin7Days.files], [0, 0]);

    // Bad settings: the default applies, the reason is said, the server keeps serving.
    setPeriod(s, 'soon');
    r = await retention(server);
    assert.is(r.dirs[0]!.cleanupPeriodDays, 30);
    assert.match(r.dirs[0]!.settingsError ?? '', /not a positive integer/);
    setPeriod(s, -3);
    assert.match((await retention(server)).dirs[0]!.settingsError ?? '', /not a positive integer/);
    fs.writeFileSync(path.join(s.cfg, 'settings.json'), '{ "cleanupPeriodDays": 10,');
    r = await retention(server);
    assert.is(r.dirs[0]!.cleanupPeriodDays, 30);
    assert.match(r.dirs[0]!.settingsError ?? '', /is not JSON/);
    fs.rmSync(path.join(s.cfg, 'settings.json'));
    r = await retention(server);
    assert.equal([r.dirs[0]!.cleanupPeriodDays, r.dirs[0]!.settingsError, r.dirs[0]!.dueForCleanup.files], [30, null, 1]);
    assert.match(server.output(), /is not JSON/, 'the bad file is logged');

    const before = await getJson<Overview>(server, '/api/overview?range=all');
    await watcherLive(server, s);
    fs.rmSync(path.join(s.project, 'old.jsonl'));
    r = await waitFor(async () => {
      const x = await retention(server!);
      return x.dirs[0]!.onlyInIndex.sessions === 1 ? x : null;
    }, 'the deleted session kept only here', 10_000);
    const only = r.dirs[0]!.onlyInIndex;
    assert.equal([only.messages, only.cost], [1, 1.25]);
    const month = new Date(Date.now() - 41 * DAY);
    const monthKey = `${month.getFullYear()}-${String(month.getMonth() + 1).padStart(2, '0')}`;
    assert.equal(only.months, [{ month: monthKey, sessions: 1, messages: 1, cost: 1.25 }]);
    assert.is(r.dirs[0]!.dueForCleanup.files, 0, 'a deleted transcript is no longer due');
    await fetch(`${server.url}/api/refresh`, { method: 'POST' });
    const after = await getJson<Overview>(server, '/api/overview?range=all');
    assert.is(after.totals.cost, before.totals.cost, 'the cost is unchanged');
    assert.is(after.totals.messages, before.totals.messages);
    const old = await getJson<SessionDetail>(server, '/api/sessions/old');
    assert.equal([old.title, old.firstPrompt, old.cost], ['prompt of old', 'prompt of old', 1.25], 'the session view keeps its title and prompt');

    // A second server on the index only reads it: it cannot turn keeping on (the one that writes can).
    const reader = await startAppServer({ dir: s.cfg, indexFile: s.index });
    try {
      const refused = await fetch(`${reader.url}/api/retention/keep`, { method: 'POST' });
      assert.is(refused.status, 409);
      assert.match(((await refused.json()) as { error: string }).error, /another process writes/);
      assert.is((await getJson<Retention>(reader, '/api/retention')).kept, null);
    } finally {
      await reader.close();
    }

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const label = `dir="${s.cfg}",when="next_start"`;
    assert.match(metrics, new RegExp(`cost_dashboard_cleanup_due_sessions\\{machine="[^"]+",${label.replace(/[/\\.]/g, '\\$&')}\\} 0`));
    assert.match(metrics, /cost_dashboard_cleanup_due_sessions\{[^}]*when="within_7_days"\} 1/);
    assert.match(metrics, /cost_dashboard_only_in_index_sessions\{[^}]*\} 1/);
    assert.match(metrics, /cost_dashboard_only_in_index_cost_usd\{[^}]*\} 1.25/);
  } finally {
    await server?.close();
    s.cleanup();
  }
});

/** Totals of `daily --json` over an index (the server's while it runs: read as committed). */
async function totalsOf(dir: string, index: string): Promise<{ totalCost: number; totalTokens: number }> {
  const r = await cli(['daily', '--json', '--dir', dir, '--index', index, '--offline', '--prices', PRICES_FILE]);
  assert.is(r.code, 0, r.stderr);
  const { totals } = JSON.parse(r.stdout) as { totals: { totalCost: number; totalTokens: number } };
  return { totalCost: totals.totalCost, totalTokens: totals.totalTokens };
}

Retain('--keep-transcripts: a deleted and a rewritten transcript keep their content; a rebuild from the kept folder gives the same totals', async () => {
  const s = setup();
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: s.cfg, indexFile: s.index, args: ['--keep-transcripts', s.kept] });
    await untilIndexed(server, 15_000);
    const [mirror] = fs.readdirSync(s.kept);
    assert.ok(mirror, 'a folder per config dir');
    const keptProject = path.join(s.kept, mirror!, 'projects', '-home-dev-alpha');
    const oldText = fs.readFileSync(path.join(s.project, 'old.jsonl'), 'utf8');
    const freshText = fs.readFileSync(path.join(s.project, 'fresh.jsonl'), 'utf8');
    await waitFor(() => fs.existsSync(path.join(keptProject, 'fresh.jsonl')), 'the transcripts kept');
    // Same file system: a hard link, no copy.
    assert.is(fs.statSync(path.join(keptProject, 'old.jsonl')).ino, fs.statSync(path.join(s.project, 'old.jsonl')).ino);

    await watcherLive(server, s);
    fs.rmSync(path.join(s.project, 'old.jsonl'));
    // Rewritten as Claude Code's tools write a file whole: a new file renamed over the old one.
    const rewritten = path.join(s.project, 'fresh.jsonl.tmp');
    const ts = new Date(Date.now() - 1800_000).toISOString();
    writeJsonl(rewritten, [usageLine({ sessionId: 'fresh', messageId: 'm-fresh-2', requestId: 'r-fresh-2', timestamp: ts, extra: { costUSD: 0.5 } })]);
    fs.renameSync(rewritten, path.join(s.project, 'fresh.jsonl'));
    await waitFor(async () => {
      const r = await getJson<Retention>(server!, '/api/retention');
      const aside = fs.readdirSync(keptProject).find((n) => n.startsWith('.fresh.jsonl.replaced-'));
      return r.dirs[0]!.onlyInIndex.sessions === 1 && aside !== undefined && fs.readFileSync(path.join(keptProject, 'fresh.jsonl'), 'utf8').includes('m-fresh-2');
    }, 'the deletion and the rewrite seen', 10_000).catch(async (e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify([fs.readdirSync(keptProject), fs.readFileSync(path.join(keptProject, 'fresh.jsonl'), 'utf8').length, (await getJson<Retention>(server!, '/api/retention')).dirs[0]!.onlyInIndex])}\n${server!.output()}`);
    });
    assert.is(fs.readFileSync(path.join(keptProject, 'old.jsonl'), 'utf8'), oldText, 'the deleted transcript keeps its content');
    const aside = fs.readdirSync(keptProject).find((n) => n.startsWith('.fresh.jsonl.replaced-'))!;
    assert.is(fs.readFileSync(path.join(keptProject, aside), 'utf8'), freshText, "the rewritten transcript's last content is kept");
    const r = await getJson<Retention>(server, '/api/retention');
    const onDisk = ['soon', 'fresh', 'probe'].reduce((n, f) => n + fs.statSync(path.join(s.project, `${f}.jsonl`)).size, 0);
    assert.equal(r.kept, { dir: s.kept, files: 5, bytes: Buffer.byteLength(oldText) + Buffer.byteLength(freshText) + onDisk });

    // Wait for the rewrite to be read (its new entry counted) before comparing.
    await waitFor(async () => {
      await fetch(`${server!.url}/api/refresh`, { method: 'POST' });
      return (await getJson<SessionDetail>(server!, '/api/sessions/fresh')).cost === 0.5;
    }, 'the rewrite read', 10_000);
    await server.close();
    const live = await totalsOf(s.cfg, s.index);
    const rebuilt = await totalsOf(path.join(s.kept, mirror!), path.join(path.dirname(s.index), 'rebuilt.db'));
    assert.equal(rebuilt, live);
    assert.is(live.totalCost, 1.25 + 2.5 + 0.5);
  } finally {
    await server?.close();
    s.cleanup();
  }
});

Retain.run();
