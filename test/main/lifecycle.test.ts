// The real built server as a process: it answers while it indexes, stops cleanly on SIGINT/SIGTERM
// (exit 0, index committed), and a restart on the same index answers from it at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_CONFIG_DIR, PRICES_FILE, ROOT } from '../helpers/app-server.ts';
import { waitFor } from '../helpers/wait.ts';

interface Run {
  port: number;
  stderr(): string;
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

async function start(indexFile: string): Promise<Run> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'dist/main.js'), '--dir', FIXTURE_CONFIG_DIR, '--port', '0', '--index', indexFile, '--offline', '--prices', PRICES_FILE],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOST: '', PORT: '', AGENT_HUB: '', HUB_URL: '' } },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const port = Number((await waitFor(() => /running at http:\/\/localhost:(\d+)/.exec(out), 'the ready line', 15_000))[1]);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    port,
    stderr: () => err,
    async stop(signal) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

async function session(port: number, id: string): Promise<{ messageCount: number } | null> {
  const res = await fetch(`http://127.0.0.1:${port}/api/sessions/${id}`);
  return res.ok ? ((await res.json()) as { messageCount: number }) : null;
}

const Lifecycle = suite('server lifecycle');

Lifecycle('SIGTERM and SIGINT stop the server with exit code 0; a restart answers from the index at once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-life-'));
  const indexFile = path.join(dir, 'index.db');
  try {
    const first = await start(indexFile);
    await waitFor(async () => (await session(first.port, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'))?.messageCount === 170, 'the fixture session');
    await waitFor(() => first.stderr().includes('indexed 9 files'), 'the start-up scan');
    assert.is(await first.stop('SIGTERM'), 0, 'SIGTERM exits 0');

    const second = await start(indexFile);
    // Answers from the index file at once, before or without reading a transcript.
    assert.is((await session(second.port, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'))?.messageCount, 170);
    await waitFor(() => second.stderr().includes('indexed 9 files'), 'the warm scan');
    const stats = (await (await fetch(`http://127.0.0.1:${second.port}/api/overview?range=3650`)).json()) as { totals: { messages: number } };
    assert.is(stats.totals.messages, 311, 'same totals after the restart');
    assert.not.match(second.stderr(), /re-reading|rebuild/, 'nothing re-read, nothing rebuilt');
    assert.is(await second.stop('SIGINT'), 0, 'SIGINT exits 0');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Lifecycle('a fresh machine: the default index goes into a cache dir that does not exist yet', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-home-'));
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/main.js'), '--dir', FIXTURE_CONFIG_DIR, '--port', '0', '--offline'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: '', COST_INDEX: '', HOST: '', PORT: '', AGENT_HUB: '', HUB_URL: '' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => /running at http:\/\/localhost:\d+/.test(out), 'the ready line', 15_000);
    const dbs = fs.readdirSync(path.join(home, '.cache', 'cost-dashboard'));
    assert.ok(dbs.some((f) => f.endsWith('.db')), `index created in ~/.cache/cost-dashboard: ${dbs.join(', ')}`);
    child.kill('SIGTERM');
    assert.is(await exited, 0);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

Lifecycle.run();
