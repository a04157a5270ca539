// The built `cost-dashboard statusline` as Claude Code runs it: status JSON on stdin (from real transcripts),
// one line on stdout, exit code 0, whatever happens: garbage, a missing transcript, no index yet, a stdin
// that never closes, an index locked by a running server. Its figures are the dashboard's.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getJson, startAppServer, untilIndexed } from '../helpers/app-server.ts';
import { DIST_BIN, FIXTURE_CONFIG_DIR, PRICES_FILE } from '../helpers/paths.ts';
import { cli, type CliOptions, type CliResult } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';
import { MESSAGES_OF_V8, openKeyed } from '../helpers/sqlite.ts';

const { dir } = tempDir('cli-statusline-');
const SID = '0b6a4d1e-5c57-4a55-9c1e-2f7f2a1d9e01';
const usd = (n: number): string => `$${n.toFixed(2)}`;
let n = 0;

/** A render as Claude Code runs it: the installed executable (`cost-dashboard statusline`). */
const render = (args: string[], opts: CliOptions = {}): Promise<CliResult> => cli(['statusline', ...args], { entry: DIST_BIN, ...opts });

const line = (id: string, ts: number, output: number) => ({
  type: 'assistant', timestamp: new Date(ts).toISOString(), sessionId: SID, requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 2000, output_tokens: output, cache_read_input_tokens: 50_000 } },
});

/** A config dir with one session of `count` responses over the last hour, and one subagent response. */
function corpus(count: number) {
  const root = path.join(dir, `cfg${++n}`);
  const transcript = path.join(root, 'projects', '-home-u-proj', `${SID}.jsonl`);
  const now = Date.now();
  writeJsonl(transcript, Array.from({ length: count }, (_, i) => line(`${n}-${i}`, now - 40 * 60_000 + i * 1000, 300 + i)));
  writeJsonl(path.join(root, 'projects', '-home-u-proj', SID, 'subagents', 'agent-a1.jsonl'), [{ ...line(`${n}-sub`, now - 60_000, 900), isSidechain: true }]);
  const index = path.join(dir, `index${n}.db`);
  const flags = ['--dir', root, '--index', index, '--prices', PRICES_FILE];
  return { root, transcript, index, flags };
}

const status = (transcript: string, sessionId = SID) =>
  JSON.stringify({
    session_id: sessionId, transcript_path: transcript, cwd: '/home/u/proj', hook_event_name: 'Status',
    model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' }, workspace: { current_dir: '/home/u/proj', project_dir: '/home/u/proj' },
    version: '2.1.29', output_style: { name: 'default' }, cost: { total_cost_usd: 0.42 },
  });

/** The session's cost in a line (the block's time left and the burn rate move with the clock). */
const sessionPart = (text: string): string => /💰 (\$[\d.]+) session/.exec(text)?.[1] ?? text;

/** One line on stdout, exit 0, within the cap plus a (loaded machine's) process start. */
function oneLine(r: CliResult): string {
  assert.is(r.code, 0, r.stderr);
  assert.ok(r.stdout.endsWith('\n') && r.stdout.split('\n').length === 2, `exactly one line: ${JSON.stringify(r.stdout)}`);
  assert.ok(r.ms < 5000, `answered in ${r.ms} ms`);
  return r.stdout.trimEnd();
}

const Line = suite('statusline');

Line('no index yet: says so at once, builds it in the background, then shows the dashboard\'s figures; a running server keeps it fresh', async () => {
  const c = corpus(6);
  const first = oneLine(await render([...c.flags], { input: status(c.transcript) }));
  assert.match(first, /Sonnet 4\.5 .*building the cost index/);
  // The background `update` it started builds the index; the next call answers from it.
  const ready = await waitFor(async () => {
    const r = await render([...c.flags], { input: status(c.transcript) });
    return r.stdout.includes('session') ? r : null;
  }, 'the background update', 30_000);
  oneLine(ready);

  // A server on the same index now writes it; the statusline reads what the server commits.
  const server = await startAppServer({ dir: c.root, args: ['--index', c.index] });
  try {
    await untilIndexed(server, 20_000);
    const check = async () => {
      await fetch(`${server.url}/api/refresh`, { method: 'POST' });
      const session = await getJson<{ cost: number }>(server, `/api/sessions/${SID}`);
      const ov = await getJson<{ today: { cost: number } | null }>(server, '/api/overview?range=today');
      const ins = await getJson<{ blocks: { active: boolean; cost: number; burn: { costPerHour: number } | null }[] }>(server, '/api/insights?range=2');
      const block = ins.blocks.find((b) => b.active)!;
      assert.ok(block, 'an active block');
      const text = oneLine(await render([...c.flags], { input: status(c.transcript) }));
      const want = `🤖 Sonnet 4.5 | 💰 ${usd(session.cost)} session / ${usd(ov.today!.cost)} today / ${usd(block.cost)} block (`;
      return text.startsWith(want) && text.endsWith(` left) | 🔥 ${usd(block.burn!.costPerHour)}/hr`) ? session.cost : 0;
    };
    const before = await waitFor(check, 'the figures of the server', 10_000);
    fs.appendFileSync(c.transcript, `${JSON.stringify(line('late', Date.now(), 50_000))}\n`);
    // 50k output tokens of Sonnet 4.5 cost $0.75: the line moves once the server has committed them.
    await waitFor(async () => {
      const cost = await check();
      return cost > before + 0.7 ? cost : 0;
    }, 'the append, through the server', 15_000);
  } finally {
    await server.close();
  }
});

Line('with no server, its session\'s new lines (subagents included) are read by a background update; the next render shows them', async () => {
  const c = corpus(3);
  const update = await cli(['update', ...c.flags]);
  assert.is(update.code, 0, update.stderr);
  const costOf = async () => {
    const json = (await cli(['session', '--json', ...c.flags])).stdout;
    return (JSON.parse(json) as { sessions: { sessionId: string; totalCost: number }[] }).sessions.find((s) => s.sessionId === SID)!.totalCost;
  };
  const before = await costOf();
  const first = oneLine(await render([...c.flags], { input: status(c.transcript) }));
  assert.ok(first.includes(`💰 ${usd(before)} session`), first);
  fs.appendFileSync(c.transcript, `${JSON.stringify(line('new-main', Date.now(), 20_000))}\n`);
  const sub = path.join(c.root, 'projects', '-home-u-proj', SID, 'subagents', 'agent-a2.jsonl');
  writeJsonl(sub, [{ ...line('new-sub', Date.now(), 10_000), isSidechain: true }]);
  // This render answers at once from the index and starts the update.
  assert.is(sessionPart(oneLine(await render([...c.flags], { input: status(c.transcript) }))), sessionPart(first));
  const shown = await waitFor(async () => {
    const text = oneLine(await render([...c.flags], { input: status(c.transcript) }));
    return sessionPart(text) !== sessionPart(first) ? text : null;
  }, 'a render with the new lines', 15_000);
  const after = await costOf();
  // Sonnet 4.5 ($3 / $15 / $0.30 cache read per M): 2 x (2k input + 50k cache read) + 30k output = $0.492 more.
  assert.ok(Math.abs(after - before - 0.492) < 1e-9, `${before} -> ${after}`);
  assert.ok(shown.includes(`💰 ${usd(after)} session`), `${shown} (want ${usd(after)})`);
});

Line('a workflow run\'s journal beside the session\'s subagents is not an unread transcript: an up-to-date index starts no update', async () => {
  const c = corpus(2);
  const run = path.join(c.root, 'projects', '-home-u-proj', SID, 'subagents', 'workflows', 'wf_1');
  writeJsonl(path.join(run, 'agent-w1.jsonl'), [{ ...line(`${n}-wf`, Date.now() - 30_000, 700), isSidechain: true }]);
  writeJsonl(path.join(run, 'journal.jsonl'), [{ type: 'workflow_started', workflowId: 'wf_1', timestamp: new Date().toISOString() }]);
  const update = await cli(['update', ...c.flags]);
  assert.is(update.code, 0, update.stderr);
  oneLine(await render([...c.flags], { input: status(c.transcript) }));
  assert.not.ok(fs.existsSync(`${c.index}.update-pid`), 'no background update started');
});

Line('an index of an older schema (this code was upgraded, no server runs): says so at once, a background update migrates it', async () => {
  const c = corpus(3);
  assert.is((await cli(['update', ...c.flags])).code, 0);
  const before = oneLine(await render([...c.flags], { input: status(c.transcript) }));
  // What the previous version (schema 7) left.
  const db = openKeyed(c.index);
  db.exec(`${MESSAGES_OF_V8} DROP INDEX files_session; PRAGMA user_version = 7;`);
  db.close();
  const r = await render([...c.flags], { input: status(c.transcript) });
  assert.match(oneLine(r), /Sonnet 4\.5 .*updating the cost index/);
  assert.ok(r.ms < 2000, `not waiting for a writer that does not run (${r.ms} ms)`);
  const after = await waitFor(async () => {
    const text = oneLine(await render([...c.flags], { input: status(c.transcript) }));
    return text.includes('session') ? text : null;
  }, 'the migrated index', 15_000);
  assert.is(sessionPart(after), sessionPart(before), 'the same figures after the migration');
});

Line('an index whose writer died (kill -9): read as it is, the integrity check left to a background update', async () => {
  const c = corpus(3);
  assert.is((await cli(['update', ...c.flags])).code, 0);
  const before = oneLine(await render([...c.flags], { input: status(c.transcript) }));
  // What a killed writer leaves: the file marked open, no lock held.
  const db = new Database(c.index);
  db.prepare("UPDATE meta SET value = '1' WHERE key = 'open'").run();
  db.close();
  fs.appendFileSync(c.transcript, `${JSON.stringify(line('after-crash', Date.now(), 40_000))}\n`);
  const r = await render([...c.flags], { input: status(c.transcript) });
  assert.is(sessionPart(oneLine(r)), sessionPart(before), 'read as it was: the new line is not read by the statusline itself');
  // The background update checks the file, reads the new line and closes the file cleanly.
  await waitFor(() => {
    const check = openKeyed(c.index, { readonly: true });
    try {
      return check.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() === '0' &&
        check.prepare("SELECT count(*) FROM messages WHERE unpack_key(stored_key) LIKE '%after-crash%'").pluck().get() === 1;
    } finally {
      check.close();
    }
  }, 'the background update', 20_000);
  assert.is.not(sessionPart(oneLine(await render([...c.flags], { input: status(c.transcript) }))), sessionPart(before));
});

Line('garbage stdin, a missing transcript, a stdin that never closes, bad options: still one line and exit 0', async () => {
  const c = corpus(2);
  assert.is((await cli(['update', ...c.flags])).code, 0);
  for (const input of ['garbage', '', '[1,2]', '{"session_id": 5']) {
    const r = await render([...c.flags], { input });
    assert.is(oneLine(r), '💰 cost-dashboard: no status input');
    assert.is(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  }
  const missing = oneLine(await render([...c.flags], { input: status(path.join(c.root, 'projects', '-home-u-proj', 'gone.jsonl'), 'gone') }));
  assert.match(missing, /^🤖 Sonnet 4\.5 \| 💰 \$0\.00 session \/ \$\d+\.\d\d today/);
  const stuck = await render([...c.flags], { input: null });
  assert.is(oneLine(stuck), '💰 cost-dashboard: no status input');
  // The same from a pipe that stays open and empty (a FIFO the render itself holds open for writing): the
  // render reads a pipe without blocking, so nothing is left waiting when it exits.
  const fifo = path.join(dir, 'stdin.fifo');
  execFileSync('mkfifo', [fifo]);
  const fd = fs.openSync(fifo, 'r+');
  const started = Date.now();
  const fromFifo = spawnSync(process.execPath, [DIST_BIN, 'statusline', ...c.flags], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', timeout: 10_000 });
  fs.closeSync(fd);
  assert.is(fromFifo.status, 0, fromFifo.stderr);
  assert.is(fromFifo.stdout, '💰 cost-dashboard: no status input\n');
  assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
  const badFlag = await render(['--timezone', 'Nowhere/Land', ...c.flags], { input: status(c.transcript) });
  assert.match(oneLine(badFlag), /bad statusline options/);
  assert.match(badFlag.stderr, /Invalid --timezone/);
});

Line('the fixtures: a real session\'s cost, the same as the session report', async () => {
  const index = path.join(dir, 'fixtures.db');
  const flags = ['--dir', FIXTURE_CONFIG_DIR, '--index', index, '--prices', PRICES_FILE];
  const sessions = JSON.parse((await cli(['session', '--json', ...flags])).stdout) as { sessions: { sessionId: string; totalCost: number; projectPath: string }[] };
  for (const s of sessions.sessions) {
    const transcript = path.join(FIXTURE_CONFIG_DIR, 'projects', s.projectPath, `${s.sessionId}.jsonl`);
    const text = oneLine(await render([...flags], { input: status(transcript, s.sessionId) }));
    assert.ok(text.includes(`💰 ${usd(s.totalCost)} session`), `${text} vs ${usd(s.totalCost)}`);
  }
});

Line.run();
