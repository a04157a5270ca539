// The real built server (dist/main.js) as a child process, on a random port, over a temp index file, offline, priced
// from the fixture catalogue. Run `npm run build` first.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_CONFIG_DIR, PRICES_FILE, ROOT } from './paths.ts';
import { spawnServer, standaloneEnv } from './server-process.ts';

export interface AppServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the server wrote so far (stdout + stderr), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export interface AppServerOptions {
  dir?: string;
  /** Extra environment (e.g. AGENT_BIN, FAKE_CLAUDE_MODE). */
  env?: Record<string, string>;
  args?: string[];
  timeoutMs?: number;
  /** The index file (kept after close); default a new one in a temp dir removed on close. */
  indexFile?: string;
}

export async function startAppServer(opts: AppServerOptions = {}): Promise<AppServer> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-app-'));
  const removeTmp = () => fs.rmSync(tmp, { recursive: true, force: true });
  try {
    const server = await spawnServer({
      args: ['--dir', opts.dir ?? FIXTURE_CONFIG_DIR, '--port', '0', '--index', opts.indexFile ?? path.join(tmp, 'index.db'), '--offline', '--prices', PRICES_FILE, ...(opts.args ?? [])],
      cwd: ROOT,
      env: standaloneEnv(opts.env),
      readyTimeoutMs: opts.timeoutMs,
    });
    let closed: Promise<void> | null = null;
    const close = () => (closed ??= server.stop('SIGTERM', 5000).then(removeTmp));
    return { url: `http://localhost:${server.port}`, port: server.port, child: server.child, output: server.output, close };
  } catch (err) {
    removeTmp();
    throw err;
  }
}

/** GET a JSON answer of the server, failing with the status and body otherwise (and the server's log after a 5xx). */
export async function getJson<T>(server: AppServer, route: string): Promise<T> {
  const res = await fetch(server.url + route);
  if (!res.ok) {
    // A 500's cause is only in the server's log: without it a failure on CI cannot be told from another.
    const log = res.status >= 500 ? `\nthe server's log:\n${server.output().slice(-4000)}` : '';
    throw new Error(`${route}: ${res.status} ${await res.text()}${log}`);
  }
  return (await res.json()) as T;
}

/** Waits (bounded) until the first index build is done, then drops the answers the server cached meanwhile. */
export async function untilIndexed(server: AppServer, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await getJson<{ indexing: { done: boolean } }>(server, '/api/overview?range=3650')).indexing.done) {
    if (Date.now() > deadline) throw new Error(`the first index build took over ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await fetch(`${server.url}/api/refresh`, { method: 'POST' });
}
