// A conformance hub: the hub side of hub protocol v1, small enough to read, used by the hub tests
// and by `npm run dev:hub`. The Node part launches the app exactly as a hub does (manifest
// run.entry, hub env, IPC channel, ready line) and serves the hub page on its own origin; the page
// part (page/hub-page.js) holds the iframes and speaks the postMessage protocol. A second tiny app,
// "caller", runs on another origin with the client SDK, so a test can invoke actions as an app.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '../..');
export const FIXTURES = path.resolve(REPO_ROOT, '../shared/fixtures');
export const SDK_SERVER = path.join(HERE, 'sdk/server.cjs');
const CLIENT_SDK = path.resolve(HERE, '../vendor/agent-hub-sdk.js');

export const READY_RE = /running at http:\/\/localhost:(\d+)/i;
const READY_WAIT_MS = 20_000;

export interface ThemeDef {
  id: string;
  label: string;
  swatch: { dark: Record<string, string>; light: Record<string, string> };
  vars: { dark: Record<string, string>; light: Record<string, string> };
}

export interface HubOptions {
  /** Protocol versions the hub speaks (default [1]). */
  protocols?: number[];
  /** Config dir of the pool (default: the fixture transcripts). */
  configDir?: string;
  /** HUB_SDK_SERVER (default test/hub/sdk/server.cjs). */
  sdkServer?: string;
  /** Extra env for the app (e.g. COST_INDEX); a null value removes a variable. */
  env?: Record<string, string | null>;
  /** Themes the user added in the hub, after the 17 built-in ones. */
  userThemes?: ThemeDef[];
  /** The hub's theme at start (default dark ember). */
  theme?: { theme: 'light' | 'dark'; colorTheme: string };
  /** false: the hub has no theme registry and sends theme.changed with no vars. */
  registry?: boolean;
  /** Tabs that hold no app, after the apps (they count for alt+N). */
  idleTabs?: number;
  /** Serve the hub page's HTTP on this port (default any). */
  port?: number;
  /** false: no dashboard process, only the caller app (for tests of the client SDK and the hub page). */
  app?: boolean;
}

export interface AppProcess {
  child: ChildProcess;
  port: number;
  /** Every stdout line so far. */
  stdout: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

export interface RunningHub {
  hubUrl: string;
  appUrl: string;
  callerUrl: string;
  /** null when started with app: false. */
  app: AppProcess | null;
  hubRoot: string;
  stop(): Promise<void>;
}

export function loadThemes(): ThemeDef[] {
  const json = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'themes.json'), 'utf8')) as { themes: ThemeDef[] };
  return json.themes;
}

/** Listens on 127.0.0.1 and, best effort, ::1 on the same port, so `localhost` reaches it either way. */
function listenLoopback(handler: http.RequestListener, port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const v4 = http.createServer(handler);
  const v6 = http.createServer(handler);
  return new Promise((resolve, reject) => {
    v4.once('error', reject);
    v4.listen(port, '127.0.0.1', () => {
      const bound = (v4.address() as AddressInfo).port;
      const close = () =>
        Promise.all([v4, v6].map((s) => new Promise<void>((r) => (s.listening ? (s.closeAllConnections(), s.close(() => r())) : r())))).then(() => {});
      v6.once('error', () => resolve({ port: bound, close }));
      v6.listen(bound, '::1', () => resolve({ port: bound, close }));
    });
  });
}

function send(res: http.ServerResponse, code: number, type: string, body: string): void {
  res.writeHead(code, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

/** Reads and checks the manifest the way a hub does before it runs the app. */
export function readManifest(appRoot: string) {
  const m = JSON.parse(fs.readFileSync(path.join(appRoot, 'hub-app.json'), 'utf8'));
  if (m.manifest !== 1) throw new Error(`unknown manifest version ${m.manifest}`);
  if (typeof m.id !== 'string' || !/^[a-z][a-z0-9-]{0,31}$/.test(m.id) || m.id === 'hub') throw new Error(`bad app id ${m.id}`);
  const entry = path.resolve(appRoot, m.run?.entry ?? '');
  if (!entry.startsWith(appRoot + path.sep)) throw new Error('run.entry outside the app directory');
  return { ...m, entry } as {
    id: string;
    name: string;
    entry: string;
    actions?: { handles?: Record<string, { params?: Record<string, string>; url?: string; mode?: string }> };
    publishes?: string[];
  };
}

/** Spawns the app as a hub does and waits (20 s at most) for its ready line. */
export function spawnApp(opts: {
  appRoot?: string;
  hubUrl: string;
  hubRoot: string;
  configDir: string;
  sdkServer: string;
  env?: Record<string, string | null>;
  /** Run it as a user would, with no hub env and no IPC channel. */
  standalone?: boolean;
}): Promise<AppProcess> {
  const appRoot = opts.appRoot ?? REPO_ROOT;
  const manifest = readManifest(appRoot);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(AGENT|CLAUDE)_/.test(k)) env[k] = v;
  Object.assign(env, { AGENT_CONFIG_DIR: opts.configDir, PORT: '0', HOST: '127.0.0.1', ALLOWED_HOSTS: '' });
  delete env.HUB_URL;
  delete env.HUB_SDK_SERVER;
  if (!opts.standalone) Object.assign(env, { AGENT_HUB: '1', HUB_URL: opts.hubUrl, HUB_SDK_SERVER: opts.sdkServer });
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, ['--max-http-header-size=65536', manifest.entry], {
    cwd: opts.hubRoot,
    env,
    stdio: opts.standalone ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const stdout: string[] = [];
  let stderr = '';
  let partial = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no ready line within ${READY_WAIT_MS} ms; stderr: ${stderr.slice(-2000)}`));
    }, READY_WAIT_MS);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`app exited (${code}) before its ready line; stderr: ${stderr.slice(-2000)}`));
    };
    child.once('exit', early);
    child.stdout!.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        stdout.push(line);
        const m = READY_RE.exec(line);
        if (m && stdout.filter((l) => READY_RE.test(l)).length === 1) {
          clearTimeout(timer);
          child.off('exit', early);
          resolve({ child, port: Number(m[1]), stdout, stderr: () => stderr, exited });
        }
      }
    });
  });
}

/** Asks the app over IPC whether it is alive (what a hub does after 3 failed connects). */
export function ping(child: ChildProcess, id: string, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const onMessage = (m: unknown) => {
      const msg = m as { type?: string; id?: string };
      if (msg?.type === 'hub:pong' && msg.id === id) done(true);
    };
    function done(ok: boolean) {
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(ok);
    }
    child.on('message', onMessage);
    child.send({ type: 'hub:ping', id });
  });
}

const CALLER_MANIFEST = {
  id: 'caller',
  name: 'Caller',
  actions: {
    handles: {
      'caller.echo': { params: { text: 'string' }, url: '?echo={text}', mode: 'message' },
      'caller.open': { params: { what: 'string?' }, url: '?open={what}' },
    },
  },
  publishes: ['caller.note'],
};

function callerPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Caller</title></head>
<body><script src="/vendor/agent-hub-sdk.js"></script>
<p>caller app</p>
<script>
  window.seen = { events: [], actions: [], active: [], status: [], themes: null, modes: [] };
  window.mode = { theme: 'dark', colorTheme: 'ember' };
  window.caller = AgentHub.connect();
  window.report = caller.bindTheme({ get: () => window.mode, set: (t) => { window.mode = t; seen.modes.push(t); } });
  for (const topic of ['project.changed', 'caller.note']) caller.subscribe(topic, (p) => seen.events.push({ topic, p }));
  caller.handle('caller.echo', (params, meta) => seen.actions.push({ params, meta }));
  caller.onActive((a) => seen.active.push(a));
  caller.onStatus((s) => seen.status.push(s));
  caller.onThemes((list) => (seen.themes = list));
</script></body></html>`;
}

/** Starts the hub page server, the caller app and the app under test. */
export async function startHub(opts: HubOptions = {}): Promise<RunningHub> {
  const hubRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-root-'));
  const themes = [...loadThemes(), ...(opts.userThemes ?? [])];
  const manifest = readManifest(REPO_ROOT);
  let pageConfig = '';
  const clientSdk = fs.readFileSync(CLIENT_SDK, 'utf8');

  const hub = await listenLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', hubPage(pageConfig));
    if (url.pathname === '/hub-page.js') return send(res, 200, 'text/javascript', fs.readFileSync(path.join(HERE, 'page/hub-page.js'), 'utf8'));
    send(res, 404, 'text/plain', 'Not found');
  }, opts.port);
  const hubUrl = `http://localhost:${hub.port}`;

  const caller = await listenLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', callerPage());
    if (url.pathname === '/hub-config') return send(res, 200, 'application/json', JSON.stringify({ enabled: true, url: hubUrl }));
    if (url.pathname === '/vendor/agent-hub-sdk.js') return send(res, 200, 'text/javascript', clientSdk);
    send(res, 404, 'text/plain', 'Not found');
  });
  const callerUrl = `http://localhost:${caller.port}`;

  let app: AppProcess | null = null;
  try {
    if (opts.app !== false) app = await spawnApp({
      hubUrl,
      hubRoot,
      configDir: opts.configDir ?? path.join(FIXTURES, 'transcripts/config'),
      sdkServer: opts.sdkServer ?? SDK_SERVER,
      env: { COST_INDEX: path.join(hubRoot, 'index.db'), PRICES_URL: path.join(FIXTURES, 'prices/catalogue.json'), ...opts.env },
    });
  } catch (err) {
    await Promise.all([hub.close(), caller.close()]);
    fs.rmSync(hubRoot, { recursive: true, force: true });
    throw err;
  }
  const appUrl = app ? `http://localhost:${app.port}` : '';

  const apps = [
    ...(app ? [{ id: manifest.id, name: manifest.name, src: `${appUrl}/`, actions: manifest.actions?.handles ?? {}, publishes: manifest.publishes ?? [] }] : []),
    { id: CALLER_MANIFEST.id, name: CALLER_MANIFEST.name, src: `${callerUrl}/`, actions: CALLER_MANIFEST.actions.handles, publishes: CALLER_MANIFEST.publishes },
  ];
  const tabs = apps.length + (opts.idleTabs ?? 1);
  const forward = ['ctrl+alt+p', 'ctrl+alt+w', 'ctrl+alt+a', 'ctrl+alt+ArrowLeft', 'ctrl+alt+ArrowRight'];
  for (let i = 1; i <= Math.min(9, tabs); i++) forward.push(`alt+${i}`);
  pageConfig = JSON.stringify({
    protocols: opts.protocols ?? [1],
    apps,
    idleTabs: tabs - apps.length,
    forward,
    themes,
    registry: opts.registry ?? true,
    theme: opts.theme ?? { theme: 'dark', colorTheme: 'ember' },
    projects: listProjects(opts.configDir ?? path.join(FIXTURES, 'transcripts/config')),
  });

  let stopped = false;
  return {
    hubUrl,
    appUrl,
    callerUrl,
    app,
    hubRoot,
    async stop() {
      if (stopped) return;
      stopped = true;
      const proc = app?.child;
      if (app && proc && proc.exitCode === null) {
        proc.kill('SIGTERM');
        const killer = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await app.exited;
        clearTimeout(killer);
      }
      await Promise.all([hub.close(), caller.close()]);
      fs.rmSync(hubRoot, { recursive: true, force: true });
    },
  };
}

/** The project palette's list: one entry per project folder, with the path its encoded name stands for. */
function listProjects(configDir: string): { project: string; encoded: string; name: string }[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(path.join(configDir, 'projects'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
  return names.sort().map((encoded) => {
    const project = encoded.startsWith('-') ? encoded.replace(/-/g, '/') : `/${encoded}`;
    return { project, encoded, name: project.split('/').pop() || encoded };
  });
}

function hubPage(config: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Conformance hub</title>
<style>
  html, body { margin: 0; height: 100%; font: 13px system-ui, sans-serif; background: #111; color: #ddd; }
  body { display: flex; flex-direction: column; }
  header { display: flex; gap: 6px; align-items: center; padding: 6px; border-bottom: 1px solid #333; }
  header button[aria-selected="true"] { font-weight: bold; outline: 2px solid #e86f33; }
  header .spacer { flex: 1; }
  main { flex: 1; position: relative; }
  main iframe, main .idle { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; background: #fff; }
  main .idle { display: grid; place-items: center; background: #222; }
</style></head>
<body>
<header id="tabs"></header>
<main id="frames"></main>
<script type="application/json" id="hub-config">${config.replace(/</g, '\\u003c')}</script>
<script src="/hub-page.js"></script>
</body></html>`;
}
