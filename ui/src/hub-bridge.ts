// The page side of the hub protocol: the one place the dashboard talks to the hub SDK that
// /vendor/agent-hub-sdk.js loaded (the hub's client under a hub, our stub standalone). The SDK does
// the protocol; this maps it onto the shell: project scope, the session.cost action, the active
// tab, the hub's themes and theme both ways. Works with either hub naming (AgentHub or ClaudeHub).

export interface HubProject {
  encoded: string;
  name: string;
}

export interface HubCallbacks {
  /** project.changed: scope the totals to this project; null clears the scope. */
  onProject(p: HubProject | null): void;
  /** session.cost in message mode: open that session's detail; null keeps the current view. */
  onSessionAction(session: string | null): void;
  onActive(active: boolean): void;
  /** The hub's picker list (its swatch rules are already on the page as .theme-swatch-<id>). */
  onThemes(themes: { id: string; label: string }[]): void;
  /** The hub's theme: set the mode class and theme attribute. hasVars: the hub's colors are inline on <body>. */
  onTheme(mode: 'light' | 'dark', colorTheme: string, hasVars: boolean): void;
}

export interface HubBridge {
  /** The page is in a frame and an SDK is loaded. */
  framed: boolean;
  /** Reports the user's pick to the hub (after the shell applied it); nothing standalone. */
  pickTheme(mode: 'light' | 'dark', colorTheme: string): void;
  /** Whether the hub lists `action` in welcome.actions; show a link or key for it only then. */
  can(action: string): boolean;
  /** True for a key press the hub binds: the app's own key handlers must leave it alone. */
  forwards(e: KeyboardEvent): boolean;
  /** The hub's rows for the help overlay, with the keys as the hub labels them (none standalone or before welcome). */
  hubKeys(): HubKeyRow[];
}

export interface HubKeyRow {
  label: string;
  /** The keys, as the hub names them: ['Ctrl', 'Alt', 'P']. */
  keys: string[];
}

/** The hub's key bindings a help row lists (the public hub's action ids; SDK 1.4 labels them in welcome.keys). */
const HUB_KEY_ROWS: { label: string; action: string | string[] }[] = [
  { label: 'Hub: pick a project', action: 'hub.projectPicker' },
  { label: 'Hub: pick a config dir', action: 'hub.configDirPicker' },
  { label: 'Hub: app launcher', action: 'hub.appLauncher' },
  { label: 'Hub: previous / next app', action: ['hub.prevApp', 'hub.nextApp'] },
  { label: 'Hub: go to app by number', action: 'hub.appByNumber' },
];

interface ThemeState {
  theme: 'light' | 'dark';
  colorTheme: string;
}

/** The SDK's connect() result: the functions of the hub protocol's SDK section that the page uses. */
interface SdkHub {
  subscribe(topic: string, fn: (payload: unknown) => void): unknown;
  bindTheme(b: { get(): ThemeState; set(t: ThemeState): void }): () => void;
  onThemes(fn: (themes: { id: string; label: string }[]) => void): unknown;
  onActive(fn: (active: boolean) => void): unknown;
  handle(action: string, fn: (params: Record<string, unknown>) => void): void;
  can(action: string): boolean;
  forwards(e: KeyboardEvent): boolean;
  /** SDK 1.4: the keys of a hub action as the hub labels them; [] when no key runs it, null when not reported. */
  keyLabel?(action: string | string[]): string[] | null;
}

interface SdkGlobal {
  connect(): SdkHub;
}

declare global {
  interface Window {
    AgentHub?: SdkGlobal;
    ClaudeHub?: SdkGlobal;
  }
}

/** The server's pattern for encoded project folder names. */
const ENCODED_RE = /^[A-Za-z0-9._-]+$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** project.changed payload -> the shell's scope; undefined for a payload we cannot use (ignored). */
export function projectOf(payload: unknown): HubProject | null | undefined {
  if (payload === null) return null;
  if (!isRecord(payload) || typeof payload.encoded !== 'string' || !ENCODED_RE.test(payload.encoded)) return undefined;
  return { encoded: payload.encoded, name: typeof payload.name === 'string' && payload.name ? payload.name : payload.encoded };
}

/** session.cost params -> the session to open, or null (keep the view). */
export function sessionOf(params: unknown): string | null {
  const s = isRecord(params) ? params.session : undefined;
  return typeof s === 'string' && ENCODED_RE.test(s) ? s : null;
}

/** The shell's current theme, read from what ui/src/theme.ts stores (spec "Browser storage"). */
function storedTheme(): ThemeState {
  let mode: string | null = null;
  let color: string | null = null;
  try {
    mode = localStorage.getItem('theme');
    color = localStorage.getItem('color-theme');
  } catch {
    /* storage blocked: defaults */
  }
  return { theme: mode === 'light' ? 'light' : 'dark', colorTheme: color || 'ember' };
}

export function connectHub(cb: HubCallbacks): HubBridge {
  const sdk = window.AgentHub ?? window.ClaudeHub;
  if (!sdk) {
    return { framed: false, pickTheme() {}, can: () => false, forwards: () => false, hubKeys: () => [] };
  }
  const hub = sdk.connect();
  let current = storedTheme();

  // Theme rule 10: bind right after connect(), so theme.changed is in the hello.
  const report = hub.bindTheme({
    get: () => current,
    set: (t) => {
      current = t;
    },
  });
  // The full payload (with or without vars) reaches subscribers after the SDK applied it.
  hub.subscribe('theme.changed', (p) => {
    if (!isRecord(p) || (p.theme !== 'light' && p.theme !== 'dark')) return;
    const colorTheme = typeof p.colorTheme === 'string' && p.colorTheme ? p.colorTheme : current.colorTheme;
    current = { theme: p.theme, colorTheme };
    cb.onTheme(p.theme, colorTheme, isRecord(p.vars));
  });
  hub.subscribe('project.changed', (p) => {
    const project = projectOf(p);
    if (project !== undefined) cb.onProject(project);
  });
  hub.handle('session.cost', (params) => cb.onSessionAction(sessionOf(params)));
  hub.onActive((active) => cb.onActive(active));
  hub.onThemes((themes) => cb.onThemes(themes));

  return {
    framed: window.top !== window,
    pickTheme(mode, colorTheme) {
      current = { theme: mode, colorTheme };
      report();
    },
    can: (action) => hub.can(action),
    forwards: (e) => hub.forwards(e),
    hubKeys: () => hubKeyRows(hub),
  };
}

/** A row per hub binding the hub reports a key for; one it leaves unbound ([]) or does not report (null, an SDK before 1.4) is left out. */
export function hubKeyRows(hub: Pick<SdkHub, 'keyLabel'>): HubKeyRow[] {
  if (typeof hub.keyLabel !== 'function') return [];
  return HUB_KEY_ROWS.flatMap(({ label, action }) => {
    const keys = hub.keyLabel!(action);
    return Array.isArray(keys) && keys.length > 0 && keys.every((k) => typeof k === 'string') ? [{ label, keys }] : [];
  });
}
