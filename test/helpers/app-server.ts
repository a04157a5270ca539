// The real built server (dist/main.js) as a child process, on a random port, over a temp index file.
// Run `npm run build` first. The port comes from the ready line the hub also matches.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = path.resolve(ROOT, '../shared');
export const FIXTURE_CONFIG_DIR = path.join(SHARED, 'fixtures/transcripts/config');
export const PRICES_FILE = path.join(SHARED, 'fixtures/prices/catalogue.json');
export const FAKE_CLAUDE = path.join(ROOT, 'test/fixtures/fake-claude/claude');

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
  const main = path.join(ROOT, 'dist/main.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-app-'));
  const args = [
    main,
    '--dir', opts.dir ?? FIXTURE_CONFIG_DIR,
    '--port', '0',
    '--index', opts.indexFile ?? path.join(tmp, 'index.db'),
    '--offline',
    '--prices', PRICES_FILE,
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '', PORT: '', AGENT_HUB: '', CLAUDE_HUB: '', HUB_URL: '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => (out += c));

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      const done = () => {
        fs.rmSync(tmp, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      child.kill('SIGTERM');
    }));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`server gave no ready line in ${opts.timeoutMs ?? 20_000} ms`)), opts.timeoutMs ?? 20_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      void close();
      reject(new Error(`${err.message}\n--- server output ---\n${out}`));
    };
    child.stdout.on('data', (c: string) => {
      out += c;
      const m = /running at http:\/\/localhost:(\d+)/i.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code, signal) => fail(new Error(`server exited (${code ?? signal}) before it was ready`)));
  });
  return { url: `http://localhost:${port}`, port, child, output: () => out, close };
}

/** GET a JSON answer of the server, failing with the status and body otherwise. */
export async function getJson<T>(server: AppServer, route: string): Promise<T> {
  const res = await fetch(server.url + route);
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
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
