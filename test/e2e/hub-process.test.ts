// The built dashboard (dist/main.js, `npm run build` first) as a process of the conformance hub:
// the hub restarts it after a crash behind the same public port, its proxy reuses an idle
// keep-alive socket past Node's old 5 s timeout with no reset, and however the hub goes away (q or
// end of input on its stdin, SIGTERM, SIGHUP to its process group as a closed terminal sends,
// SIGKILL) the app leaves its index committed and marked clean.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitFor } from '../helpers/wait.ts';
import { FIXTURES, ROOT } from '../helpers/paths.ts';
import { startHub } from '../hub/conformance-hub.ts';

const SESSION = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
const ALL = 3650;

interface Overview {
  indexing: { done: boolean };
  totals: { messages: number };
}

async function overview(appUrl: string): Promise<Overview | null> {
  try {
    const res = await fetch(`${appUrl}/api/overview?range=${ALL}`);
    return res.ok ? ((await res.json()) as Overview) : null;
  } catch {
    return null;
  }
}

/** The committed messages once the first index is done, as the app reports them. */
async function indexedMessages(appUrl: string): Promise<number> {
  const o = await waitFor(async () => {
    const r = await overview(appUrl);
    return r?.indexing.done && r.totals.messages > 0 ? r : null;
  }, 'the first index', 30_000);
  return o.totals.messages;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** What the index file holds after the app is gone: its clean flag and its rows. */
function indexState(file: string): { open: string | undefined; messages: number } {
  const db = new Database(file, { readonly: true });
  try {
    const open = db.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() as string | undefined;
    const messages = db.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    return { open, messages };
  } finally {
    db.close();
  }
}

/** The hub as its own process (test/hub/dev.ts), in its own process group, as a terminal runs it. */
async function runHub(indexFile: string): Promise<{ hub: ChildProcess; appUrl: string; appPid: number; err: () => string }> {
  const hub = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/hub/dev.ts'), '--index', indexFile], {
    cwd: ROOT,
    env: { ...process.env, CLAUDE_CONFIG_DIR: path.join(FIXTURES, 'transcripts/config') },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  hub.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  hub.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const line = await waitFor(() => /^\{.*"appPid".*\}$/m.exec(out)?.[0], 'the hub ready line', 30_000).catch((e: Error) => {
    hub.kill('SIGKILL');
    throw new Error(`${e.message}; stderr: ${err.slice(-2000)}`);
  });
  const info = JSON.parse(line) as { appUrl: string; appPid: number };
  return { hub, appUrl: info.appUrl, appPid: info.appPid, err: () => err };
}

const test = suite('the app as a process of the hub');

test('a crashed app is restarted behind the same public port', async () => {
  const hub = await startHub();
  try {
    const first = hub.app!;
    assert.ok((await fetch(`${hub.appUrl}/hub-config`)).ok);
    const next = hub.supervisor!.nextStart();
    first.child.kill('SIGKILL');
    const second = await next;
    assert.is.not(second.child.pid, first.child.pid);
    assert.is(hub.app, second);
    assert.is(hub.supervisor!.starts(), 2);
    assert.ok(hub.logs.some((l) => /app exited \(null\); restarting/.test(l)), hub.logs.join('\n'));
    // The browser's origin did not change: the proxy reaches the new process.
    await waitFor(async () => (await fetch(`${hub.appUrl}/api/sessions/${SESSION}`)).status === 200, 'the session from the new process', 20_000);
  } finally {
    await hub.stop();
  }
});

test('keep-alive through the proxy: a pooled socket idle past 5 s is reused with no reset or retry', async () => {
  const hub = await startHub();
  try {
    assert.ok((await fetch(`${hub.appUrl}/hub-config`)).ok);
    const sockets = hub.proxy!.upstreamSockets();
    // Past Node's default 5 s keepAliveTimeout, after which the app used to close the socket the proxy kept.
    await new Promise((r) => setTimeout(r, 6000));
    assert.ok((await fetch(`${hub.appUrl}/hub-config`)).ok);
    assert.is(hub.proxy!.upstreamSockets(), sockets, 'the idle socket to the app was reused');
    assert.is(hub.proxy!.retries(), 0);
  } finally {
    await hub.stop();
  }
});

const ENDINGS: [string, (hub: ChildProcess) => void][] = [
  ['q on stdin', (hub) => hub.stdin!.write('q\n')],
  ['end of stdin', (hub) => hub.stdin!.end()],
  ['SIGTERM', (hub) => hub.kill('SIGTERM')],
  // A closed terminal: SIGHUP reaches the hub and the app, the whole process group.
  ['SIGHUP to the process group', (hub) => process.kill(-hub.pid!, 'SIGHUP')],
  // The hub dies at once: the app sees its IPC channel close, and the hub SDK exits the process.
  ['SIGKILL', (hub) => hub.kill('SIGKILL')],
];

for (const [how, end] of ENDINGS) {
  test(`the hub ends by ${how}: the app exits with its index committed and marked clean`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-exit-'));
    const indexFile = path.join(dir, 'index.db');
    const run = await runHub(indexFile);
    try {
      const messages = await indexedMessages(run.appUrl);
      end(run.hub);
      await waitFor(() => !alive(run.appPid), 'the app to exit', 15_000);
      const state = indexState(indexFile);
      assert.is(state.open, '0', `marked clean; hub stderr: ${run.err().slice(-1500)}`);
      assert.is(state.messages, messages);
    } finally {
      if (run.hub.exitCode === null && run.hub.signalCode === null) run.hub.kill('SIGKILL');
      if (alive(run.appPid)) process.kill(run.appPid, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
