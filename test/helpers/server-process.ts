// A server as a child process, waited for until it prints its ready line: the one way the tests, the conformance hub
// and the bench start the built server (dist/main.js).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { DIST_MAIN } from './paths.ts';

/** The line a hub waits for, matched case-insensitively as the public hub does; group 1 is the port. */
export const READY_LINE = /running at http:\/\/localhost:(\d+)/i;

/** This process's environment without what would make the server bind elsewhere or act as a hub tab. */
export function standaloneEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, HOST: '', PORT: '', AGENT_HUB: '', CLAUDE_HUB: '', HUB_URL: '', ...extra };
}

export interface SpawnServerOptions {
  /** Arguments after the entry. */
  args?: string[];
  /** The script to run; default dist/main.js. */
  entry?: string;
  /** Node's own flags, before the entry. */
  nodeArgs?: string[];
  /** The child's whole environment; default standaloneEnv(). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** An IPC channel, as a hub opens one. */
  ipc?: boolean;
  /** How long to wait for the ready line; default 20 s. */
  readyTimeoutMs?: number;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** performance.now() at the spawn and at the ready line. */
  spawnedAt: number;
  readyAt: number;
  /** Every complete stdout line so far. */
  stdout: string[];
  stderr(): string;
  /** stdout and stderr as they arrived, for failure messages. */
  output(): string;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
  /** Resolves with performance.now() at the stderr chunk that completed a match of `re` (printed before or later). */
  logged(re: RegExp): Promise<number>;
  /** Sends `signal` (SIGKILL if it is still running after `graceMs`) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

export async function spawnServer(opts: SpawnServerOptions = {}): Promise<ServerProcess> {
  const entry = opts.entry ?? DIST_MAIN;
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), entry, ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env: opts.env ?? standaloneEnv(),
    stdio: opts.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // 'close': exited and every output stream drained.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  const stdout: string[] = [];
  let partial = '';
  let stderr = '';
  // Where each stderr chunk ended and when it arrived, so logged() can tell when a match was completed.
  const chunks: { end: number; at: number }[] = [];
  const waiters = new Set<() => void>();
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    output += c;
    stderr += c;
    chunks.push({ end: stderr.length, at: performance.now() });
    for (const w of waiters) w();
  });

  const port = await new Promise<number>((resolve, reject) => {
    const timeoutMs = opts.readyTimeoutMs ?? 20_000;
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.off('exit', early);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(new Error(`${why}\n--- server output ---\n${output.slice(-4000)}`));
    };
    const timer = setTimeout(() => fail(`no ready line within ${timeoutMs} ms`), timeoutMs);
    const early = (code: number | null, signal: NodeJS.Signals | null): void => fail(`the server exited (${code ?? signal}) before its ready line`);
    child.once('exit', early);
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      output += c;
      const lines = (partial + c).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        stdout.push(line);
        const m = READY_LINE.exec(line);
        if (m && stdout.filter((l) => READY_LINE.test(l)).length === 1) {
          clearTimeout(timer);
          child.off('exit', early);
          resolve(Number(m[1]));
        }
      }
    });
  });
  const readyAt = performance.now();

  const logged = (re: RegExp): Promise<number> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const m = re.exec(stderr);
        if (!m) return false;
        const end = m.index + m[0].length;
        resolve(chunks.find((c) => c.end >= end)!.at);
        return true;
      };
      if (check()) return;
      const waiter = (): void => void (check() && done());
      const done = (): void => void waiters.delete(waiter);
      waiters.add(waiter);
      void closed.then(() => {
        if (!waiters.has(waiter)) return;
        done();
        reject(new Error(`the server exited (${child.exitCode ?? child.signalCode}) before logging ${re}\n${stderr.slice(-4000)}`));
      });
    });

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(kill);
    }
    return exited;
  };

  return { child, port, spawnedAt, readyAt, stdout, stderr: () => stderr, output: () => output, exited, logged, stop };
}
