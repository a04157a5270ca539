// A conformance hub: the hub side of hub protocol v1 as the public hub implements it, small enough
// to read, used by the hub tests and by `npm run dev:hub`. The Node part launches the app as that
// hub does (manifest run.entry, its whole environment plus CLAUDE_HUB and CLAUDE_CONFIG_DIR, IPC
// channel, ready line), supervises it (supervisor.ts: restart after a crash, IPC ping, health
// probes, SIGKILL 3 s after SIGTERM), serves it to the browser through a proxy on a fixed port
// (proxy.ts) and serves the hub page on its own origin; the page part (page/hub-page.js) holds the
// iframes and speaks the postMessage protocol. A second tiny app, "caller", runs on another origin
// with the client SDK, so a test can invoke actions as an app.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { FIXTURES, ROOT } from '../helpers/paths.ts';
import { spawnServer } from '../helpers/server-process.ts';
import { startProxy, type Proxy } from './proxy.ts';
import { ping, supervise, type AppProcess, type Supervisor } from './supervisor.ts';

export { ping, type AppProcess };

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SDK_SERVER = path.join(HERE, 'sdk/server.cjs');
/** What the hub's SDK serves at /vendor/claude-hub-sdk.js: keys.js, then client.js. */
export const CLIENT_BUNDLE: string = (createRequire(import.meta.url)(SDK_SERVER) as { bundle(): string }).bundle();

const READY_WAIT_MS = 20_000;

export interface ThemeDef {
  id: string;
  label: string;
  swatch: { dark: Record<string, string>; light: Record<string, string> };
  vars: { dark: Record<string, string>; light: Record<string, string> };
}

/** The hub actions a user can rebind (the public hub's config.json `keys`); {n} is the tab number. */
export const HUB_KEYS: Record<string, string> = {
  'hub.projectPicker': 'ctrl+alt+p',
  'hub.configDirPicker': 'ctrl+alt+w',
  'hub.appLauncher': 'ctrl+alt+a',
  'hub.prevApp': 'ctrl+alt+ArrowLeft',
  'hub.nextApp': 'ctrl+alt+ArrowRight',
  'hub.appByNumber': 'alt+{n}',
};

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
  /** The theme the hub stored from an earlier run; none (first run): the OS preference and no colour theme. */
  theme?: { theme: 'light' | 'dark'; colorTheme: string };
  /** false: the hub has no theme registry and sends theme.changed with no vars. */
  registry?: boolean;
  /** Tabs that hold no app, after the apps (they count for alt+N). */
  idleTabs?: number;
  /** Serve the hub page's HTTP on this port (default any). */
  port?: number;
  /** The app's public (proxy) port; default the manifest's run.defaultPort, a random one when taken. */
  appPort?: number;
  /** false: no dashboard process, only the caller app (for tests of the client SDK and the hub page). */
  app?: boolean;
  /** The user's keymap: hub action id -> combo, or null to unbind it (the public hub's config.json `keys`). */
  keys?: Record<string, string | null>;
  /** Where the hub's log lines go (default: kept in RunningHub.logs only). */
  log?: (line: string) => void;
}

export interface RunningHub {
  hubUrl: string;
  /** The app's origin as the browser sees it: the hub's proxy. */
  appUrl: string;
  callerUrl: string;
  /** The app process now (a new one after a restart); null with app: false or between a crash and its restart. */
  readonly app: AppProcess | null;
  supervisor: Supervisor | null;
  proxy: Proxy | null;
  hubRoot: string;
  logs: string[];
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
    run: { defaultPort?: number };
    actions?: { handles?: Record<string, { params?: Record<string, string>; url?: string; mode?: string }> };
    publishes?: string[];
  };
}

const HUB_ENV = ['AGENT_HUB', 'CLAUDE_HUB', 'HUB_URL', 'HUB_SDK_SERVER'];

/** Spawns the app as the public hub does and waits (20 s at most) for its ready line. */
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
  const appRoot = opts.appRoot ?? ROOT;
  const manifest = readManifest(appRoot);
  // The hub's whole environment goes through; the hub adds its own variables on top.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const k of HUB_ENV) delete env[k];
  if (!opts.standalone) {
    Object.assign(env, {
      CLAUDE_HUB: '1',
      HUB_URL: opts.hubUrl,
      CLAUDE_CONFIG_DIR: opts.configDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ALLOWED_HOSTS: '',
      HUB_SDK_SERVER: opts.sdkServer,
    });
  } else Object.assign(env, { CLAUDE_CONFIG_DIR: opts.configDir, PORT: '0', HOST: '127.0.0.1' });
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  return spawnServer({
    entry: manifest.entry,
    nodeArgs: ['--max-http-header-size=65536'],
    cwd: opts.hubRoot,
    env,
    ipc: !opts.standalone,
    readyTimeoutMs: READY_WAIT_MS,
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
<body><script src="/vendor/claude-hub-sdk.js"></script>
<p>caller app</p>
<script>
  window.seen = { events: [], actions: [], active: [], status: [], themes: null, modes: [] };
  window.mode = { theme: 'dark', colorTheme: 'ember' };
  window.caller = ClaudeHub.connect();
  window.report = caller.bindTheme({ get: () => window.mode, set: (t) => { window.mode = t; seen.modes.push(t); } });
  for (const topic of ['project.changed', 'caller.note']) caller.subscribe(topic, (p) => seen.events.push({ topic, p }));
  caller.handle('caller.echo', (params, meta) => seen.actions.push({ params, meta }));
  caller.onActive((a) => seen.active.push(a));
  caller.onStatus((s) => seen.status.push(s));
  caller.onThemes((list) => (seen.themes = list));
</script></body></html>`;
}

/** The combos the hub binds and, per hub action, the keys it shows for it (welcome.forward and welcome.keys). */
export function hubKeymap(userKeys: Record<string, string | null>, tabs: number): { forward: string[]; labels: Record<string, string[]>; bindings: Record<string, string> } {
  const keyParts = (createRequire(import.meta.url)(path.join(HERE, 'sdk/keys.js')) as { keyParts(c: string, mac: boolean): string[] }).keyParts;
  const forward: string[] = [];
  const labels: Record<string, string[]> = {};
  const bindings: Record<string, string> = {};
  for (const [id, def] of Object.entries(HUB_KEYS)) {
    const combo = id in userKeys ? userKeys[id]! : def;
    labels[id] = combo === null ? [] : keyParts(combo, false);
    if (combo === null) continue;
    const combos = combo.includes('{n}') ? Array.from({ length: Math.min(9, tabs) }, (_, i) => combo.replace('{n}', String(i + 1))) : [combo];
    for (const c of combos) {
      forward.push(c);
      bindings[c] = combo.includes('{n}') ? `${id}:${c.slice(combo.indexOf('{n}'))}` : id;
    }
  }
  return { forward, labels, bindings };
}

/** Starts the hub page server, the caller app and the app under test (supervised, behind its proxy). */
export async function startHub(opts: HubOptions = {}): Promise<RunningHub> {
  const hubRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-root-'));
  const logs: string[] = [];
  const log = (line: string) => {
    logs.push(line);
    opts.log?.(line);
  };
  const themes = [...loadThemes(), ...(opts.userThemes ?? [])];
  const manifest = readManifest(ROOT);
  const configDir = opts.configDir ?? path.join(FIXTURES, 'transcripts/config');
  let pageConfig = '';

  const hub = await listenLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', hubPage(pageConfig));
    if (url.pathname === '/hub-page.js') return send(res, 200, 'text/javascript', fs.readFileSync(path.join(HERE, 'page/hub-page.js'), 'utf8'));
    if (url.pathname === '/sdk/keys.js') return send(res, 200, 'text/javascript', fs.readFileSync(path.join(HERE, 'sdk/keys.js'), 'utf8'));
    send(res, 404, 'text/plain', 'Not found');
  }, opts.port);
  const hubUrl = `http://localhost:${hub.port}`;

  const caller = await listenLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', callerPage());
    if (url.pathname === '/hub-config') return send(res, 200, 'application/json', JSON.stringify({ enabled: true, url: hubUrl }));
    if (url.pathname === '/vendor/claude-hub-sdk.js') return send(res, 200, 'text/javascript', CLIENT_BUNDLE);
    send(res, 404, 'text/plain', 'Not found');
  });
  const callerUrl = `http://localhost:${caller.port}`;

  let supervisor: Supervisor | null = null;
  let proxy: Proxy | null = null;
  const launch = () =>
    spawnApp({
      hubUrl,
      hubRoot,
      configDir,
      sdkServer: opts.sdkServer ?? SDK_SERVER,
      env: { COST_INDEX: path.join(hubRoot, 'index.db'), PRICES_URL: path.join(FIXTURES, 'prices/catalogue.json'), ...opts.env },
    });
  try {
    if (opts.app !== false) {
      const sup = supervise(launch, await launch(), log);
      supervisor = sup;
      proxy = await startProxy(opts.appPort ?? manifest.run.defaultPort ?? 0, {
        port: () => sup.current()?.port ?? null,
        unreachable: () => sup.unreachable(),
        replace: () => sup.replace(),
      });
    }
  } catch (err) {
    await supervisor?.stop();
    await Promise.all([hub.close(), caller.close()]);
    fs.rmSync(hubRoot, { recursive: true, force: true });
    throw err;
  }
  const appUrl = proxy ? proxy.url : '';
  // Health probes, as the hub runs them in the background.
  const probes = supervisor ? setInterval(() => void supervisor!.probe(), 30_000).unref() : null;

  const apps = [
    ...(proxy ? [{ id: manifest.id, name: manifest.name, src: `${appUrl}/`, actions: manifest.actions?.handles ?? {}, publishes: manifest.publishes ?? [] }] : []),
    { id: CALLER_MANIFEST.id, name: CALLER_MANIFEST.name, src: `${callerUrl}/`, actions: CALLER_MANIFEST.actions.handles, publishes: CALLER_MANIFEST.publishes },
  ];
  const tabs = apps.length + (opts.idleTabs ?? 1);
  const keymap = hubKeymap(opts.keys ?? {}, tabs);
  pageConfig = JSON.stringify({
    protocols: opts.protocols ?? [1],
    apps,
    idleTabs: tabs - apps.length,
    forward: keymap.forward,
    keyLabels: keymap.labels,
    bindings: keymap.bindings,
    themes,
    registry: opts.registry ?? true,
    theme: opts.theme ?? null,
    projects: listProjects(configDir),
  });

  let stopped = false;
  return {
    hubUrl,
    appUrl,
    callerUrl,
    get app() {
      return supervisor?.current() ?? null;
    },
    supervisor,
    proxy,
    hubRoot,
    logs,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (probes) clearInterval(probes);
      await supervisor?.stop();
      await Promise.all([hub.close(), caller.close(), proxy?.close()]);
      fs.rmSync(hubRoot, { recursive: true, force: true });
    },
  };
}

/** How Claude Code names a project's folder: every character but a letter or digit becomes '-'. */
export const encodeProject = (p: string): string => p.replace(/[^A-Za-z0-9]/g, '-');

/** The first `cwd` of each transcript directly in `dir` (a session's first line carries it). */
function cwdsOf(dir: string): string[] {
  const out: string[] = [];
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    const head = fs.readFileSync(path.join(dir, f), 'utf8').slice(0, 64 * 1024);
    const m = /"cwd":"((?:[^"\\]|\\.)*)"/.exec(head);
    if (m) out.push(JSON.parse(`"${m[1]}"`) as string);
  }
  return out;
}

/**
 * The project palette's list: one entry per project folder, worktrees included (each has its own
 * folder), with its real path from the transcripts' cwd, so "claude-history" stays one name: the cwd
 * that encodes to the folder name, else the shortest (a session can start in a subfolder).
 */
export function listProjects(configDir: string): { project: string; encoded: string; name: string }[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(path.join(configDir, 'projects'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
  return names.sort().flatMap((encoded) => {
    const cwds = cwdsOf(path.join(configDir, 'projects', encoded)).sort((a, b) => a.length - b.length);
    const project = cwds.find((c) => encodeProject(c) === encoded) ?? cwds[0];
    if (!project) return [];
    return [{ project, encoded, name: project.split('/').filter(Boolean).pop() || project }];
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
  /* As the public hub: a hidden tab keeps its layout (charts keep their size) and takes no input. */
  main .hidden { visibility: hidden; pointer-events: none; }
</style></head>
<body>
<header id="tabs"></header>
<main id="frames"></main>
<script type="application/json" id="hub-config">${config.replace(/</g, '\\u003c')}</script>
<script src="/sdk/keys.js"></script>
<script src="/hub-page.js"></script>
</body></html>`;
}
