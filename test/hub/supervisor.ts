// The conformance hub's process supervisor for one app, as the public hub runs its apps: restart
// after a crash (up to 5 times in 60 s), an IPC ping before replacing an app whose port does not
// answer, health probes (an HTTP request and an IPC ping sent together: a slow answer with a fast
// pong, three times in 5 minutes, is the port, and the app moves to a new one), and a stop that
// sends SIGTERM and SIGKILL 3 s later.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';

export const KILL_GRACE_MS = 3000;
const RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const PING_MS = 3000;
const SLOW_HTTP_MS = 300;
const FAST_IPC_MS = 100;
const STRIKES = 3;
const STRIKE_WINDOW_MS = 5 * 60_000;

export interface AppProcess {
  child: ChildProcess;
  port: number;
  /** Every stdout line so far. */
  stdout: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

export interface Supervisor {
  /** The running process (the latest one after a restart); null between a crash and its restart. */
  current(): AppProcess | null;
  /** Processes started so far, the first included. */
  starts(): number;
  /** Resolves with the next process started after this call. */
  nextStart(): Promise<AppProcess>;
  /** Three connects failed: pings over IPC; no pong within 3 s replaces the app. */
  unreachable(): Promise<boolean>;
  replace(): Promise<void>;
  /** One health probe; a third strike in 5 minutes replaces the app. Returns the two times (ipcMs null: no pong). */
  probe(): Promise<{ httpMs: number; ipcMs: number | null }>;
  stop(): Promise<void>;
}

let pingSeq = 0;

/** True when the child answers hub:ping over its IPC channel within `timeoutMs` (the channel does not use TCP). */
export function ping(child: ChildProcess, timeoutMs = PING_MS): Promise<boolean> {
  if (!child.connected) return Promise.resolve(false);
  const id = `ping-${++pingSeq}`;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(ok);
    };
    const onMessage = (m: unknown) => {
      const msg = m as { type?: string; id?: string } | null;
      if (msg?.type === 'hub:pong' && msg.id === id) done(true);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    child.on('message', onMessage);
    child.send({ type: 'hub:ping', id }, (err) => err && done(false));
  });
}

/** SIGTERM, then SIGKILL after the grace; resolves when the child has exited. */
export async function killChild(app: AppProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  const { child } = app;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await app.exited;
  clearTimeout(timer);
}

export function supervise(spawn: () => Promise<AppProcess>, first: AppProcess, log: (m: string) => void): Supervisor {
  let app: AppProcess | null = first;
  let starts = 1;
  let stopping = false;
  const restartsAt: number[] = [];
  const strikes: number[] = [];
  const waiters: ((a: AppProcess) => void)[] = [];

  const started = (next: AppProcess) => {
    app = next;
    starts++;
    watch(next);
    for (const w of waiters.splice(0)) w(next);
  };

  function watch(a: AppProcess): void {
    void a.exited.then(async (code) => {
      if (stopping || app !== a) return;
      app = null;
      const now = Date.now();
      while (restartsAt.length && restartsAt[0]! < now - RESTART_WINDOW_MS) restartsAt.shift();
      if (restartsAt.length >= RESTARTS) return log(`app exited (${code}); ${RESTARTS} restarts in 60 s, not restarting`);
      restartsAt.push(now);
      log(`app exited (${code}); restarting`);
      try {
        started(await spawn());
      } catch (err) {
        log(`restart failed: ${(err as Error).message}`);
      }
    });
  }
  watch(first);

  async function replace(): Promise<void> {
    const old = app;
    app = null;
    if (old) await killChild(old);
    if (!stopping) started(await spawn());
  }

  return {
    current: () => app,
    starts: () => starts,
    nextStart: () => new Promise((r) => waiters.push(r)),
    async unreachable() {
      if (app && (await ping(app.child))) return true;
      await replace();
      return false;
    },
    replace,
    async probe() {
      const a = app;
      if (!a) return { httpMs: Infinity, ipcMs: null };
      const t0 = performance.now();
      const ipc = ping(a.child, 1000).then((ok) => (ok ? performance.now() - t0 : null));
      const httpMs = await new Promise<number>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port: a.port, path: '/hub-config', headers: { host: `localhost:${a.port}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now() - t0));
        });
        req.on('error', () => resolve(Infinity));
      });
      const ipcMs = await ipc;
      if (httpMs >= SLOW_HTTP_MS && ipcMs !== null && ipcMs < FAST_IPC_MS) {
        const now = Date.now();
        strikes.push(now);
        while (strikes[0]! < now - STRIKE_WINDOW_MS) strikes.shift();
        if (strikes.length >= STRIKES && app === a) {
          strikes.length = 0;
          log('slow port with a fast app: moving the app to a new port');
          await replace();
        }
      }
      return { httpMs, ipcMs };
    },
    async stop() {
      stopping = true;
      if (app) await killChild(app);
    },
  };
}
