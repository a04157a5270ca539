// Navigation and range state, and the only place that reads or writes browser storage for them.
// URL (?view=&project=&session=&repository=&range=) <-> state, localStorage cost:range / cost:scope / cost:view / cost:sort:<view>,
// sessionStorage cost:nav. API payloads are never stored (api.ts keeps them in memory).
import { MACHINE_RE } from '../../src/shared/machine-label.ts';

// The range's syntax and calendar are src/calendar's, shared with the server.
import { customRange, parseRangeString, rangeToString, type RangeSel } from '../../src/calendar/range.ts';

export { customRange, rangeParams, type RangeSel } from '../../src/calendar/range.ts';

export type View = 'overview' | 'insights' | 'sessions' | 'project' | 'detail' | 'repository';
export type TopView = 'overview' | 'insights' | 'sessions';

/** The views of the top bar's tabs (the others open from them). */
export function isTopView(v: View): v is TopView {
  return v === 'overview' || v === 'insights' || v === 'sessions';
}

export interface Nav {
  view: View;
  project: string | null;
  session: string | null;
  /** The repository view's repository: its main checkout's path. */
  repository: string | null;
}

export interface SortSpec {
  key: string;
  dir: 'asc' | 'desc';
}

export const DEFAULT_RANGE: RangeSel = { kind: 'days', days: 3 };

export const RANGE_PRESETS: { label: string; short: string; range: RangeSel }[] = [
  { label: 'Today', short: 'Today', range: { kind: 'today' } },
  { label: 'Last 24 hours', short: '24h', range: { kind: '24h' } },
  { label: 'Last 3 days', short: '3d', range: { kind: 'days', days: 3 } },
  { label: 'Last 7 days', short: '7d', range: { kind: 'days', days: 7 } },
  { label: 'Last 30 days', short: '30d', range: { kind: 'days', days: 30 } },
  { label: 'Last 90 days', short: '90d', range: { kind: 'days', days: 90 } },
  { label: 'Last 365 days', short: '1y', range: { kind: 'days', days: 365 } },
  { label: 'This week', short: 'Week', range: { kind: 'week' } },
  { label: 'This month', short: 'Month', range: { kind: 'month' } },
  { label: 'Last month', short: 'Last mo', range: { kind: 'lastmonth' } },
  { label: 'All time', short: 'All', range: { kind: 'all' } },
];

export const KEYS = {
  range: 'cost:range',
  scope: 'cost:scope',
  view: 'cost:view',
  nav: 'cost:nav',
  sortPrefix: 'cost:sort:',
  theme: 'theme',
  colorTheme: 'color-theme',
} as const;

/** The server's pattern for encoded project folder names; session ids use the same safe set. */
const ID_RE = /^[A-Za-z0-9._-]+$/;
const VIEWS: readonly View[] = ['overview', 'insights', 'sessions', 'project', 'detail', 'repository'];

export function isId(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= 512 && ID_RE.test(s);
}

export function sameRange(a: RangeSel, b: RangeSel): boolean {
  return rangeToString(a) === rangeToString(b);
}

/** Human label: "Last 7 days", "Today", "2025-01-01 – 2025-01-31". */
export function rangeLabel(range: RangeSel): string {
  const preset = RANGE_PRESETS.find((p) => sameRange(p.range, range));
  if (preset) return preset.label;
  if (range.kind === 'days') return `Last ${range.days} days`;
  if (range.kind === 'custom') return range.from === range.to ? range.from : `${range.from} – ${range.to}`;
  return rangeToString(range);
}

// ---- storage (guarded: a sandboxed frame or full quota throws, and the app must still run) ----

function store(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStore(key: string, kind: 'local' | 'session' = 'local'): string | null {
  try {
    return store(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStore(key: string, value: string | null, kind: 'local' | 'session' = 'local'): void {
  try {
    const s = store(kind);
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    /* storage full or blocked: the state still lives in the URL and in memory */
  }
}

export function loadSort(view: string): SortSpec | null {
  try {
    const v = JSON.parse(readStore(KEYS.sortPrefix + view) ?? 'null') as unknown;
    if (v && typeof v === 'object') {
      const { key, dir } = v as Record<string, unknown>;
      if (typeof key === 'string' && key && (dir === 'asc' || dir === 'desc')) return { key, dir };
    }
  } catch {
    /* malformed: ignore */
  }
  return null;
}

export function saveSort(view: string, sort: SortSpec): void {
  writeStore(KEYS.sortPrefix + view, JSON.stringify({ key: sort.key, dir: sort.dir }));
}

export function saveRange(range: RangeSel): void {
  writeStore(KEYS.range, rangeToString(range));
}

// A scope is an encoded project folder, or a repository's folders as `repo:<main checkout path>` (the key of its row
// in the grouped project table; folder ids never contain ':').
const REPO_SCOPE = 'repo:';

/** The scope of a repository: every folder of its main checkout `id`. */
export const repositoryScope = (id: string): string => `${REPO_SCOPE}${id}`;

/** The repository path of a repository scope, null for a project scope. */
export function scopeRepository(scope: string): string | null {
  return scope.startsWith(REPO_SCOPE) ? scope.slice(REPO_SCOPE.length) : null;
}

/** A project id, or a repository scope whose path is bounded like the server's check. */
export function isScope(s: unknown): s is string {
  if (isId(s)) return true;
  if (typeof s !== 'string') return false;
  const repo = scopeRepository(s);
  return repo !== null && repo.length > 0 && repo.length <= 4096;
}

/** The data routes' query for a scope: `project=` or `repository=`. */
export function scopeParams(scope: string | null): Record<string, string> {
  if (scope === null) return {};
  const repository = scopeRepository(scope);
  return repository === null ? { project: scope } : { repository };
}

export function loadScope(): string | null {
  const s = readStore(KEYS.scope);
  return isScope(s) ? s : null;
}

export function saveScope(project: string | null): void {
  writeStore(KEYS.scope, project);
}

// ---- navigation <-> URL ----

/** Keeps a nav internally consistent: a project view needs a project, a detail view a session. */
export function normalizeNav(n: Partial<Nav> | null | undefined): Nav {
  const view = n?.view && VIEWS.includes(n.view) ? n.view : 'overview';
  const project = isId(n?.project) ? n.project : null;
  const session = isId(n?.session) ? n.session : null;
  // A path (any characters), bounded like the server's check.
  const repository = typeof n?.repository === 'string' && n.repository.length > 0 && n.repository.length <= 4096 ? n.repository : null;
  if (view === 'detail' && session) return { view, project, session, repository: null };
  if (view === 'project' && project) return { view, project, session: null, repository: null };
  if (view === 'repository' && repository) return { view, project: null, session: null, repository };
  if (view === 'insights' || view === 'sessions') return { view, project: null, session: null, repository: null };
  return { view: 'overview', project: null, session: null, repository: null };
}

/** The machine filter of a URL (`machine=<label>`), null for every machine. Kept in the URL only, not in storage. */
export function machineFromUrl(search: string): string | null {
  const m = new URLSearchParams(search).get('machine');
  return m !== null && MACHINE_RE.test(m) ? m : null;
}

/** What a URL asks for; `nav` is null when the URL names no view (then storage decides). */
export function fromUrl(search: string): { nav: Nav | null; range: RangeSel | null } {
  const q = new URLSearchParams(search);
  const view = q.get('view') as View | null;
  // `?session=<id>` alone (the hub's action URL shape) also opens the session.
  const nav = view || q.get('session')
    ? normalizeNav({ view: view ?? 'detail', project: q.get('project'), session: q.get('session'), repository: q.get('repository') })
    : null;
  const from = q.get('from');
  const to = q.get('to');
  const range = from && to ? customRange(from, to) : parseRangeString(q.get('range'));
  return { nav, range };
}

/** The query string for a state; keeps unrelated params (e.g. a hub's) untouched. */
export function toUrl(nav: Nav, range: RangeSel, base: string = location.search, machine: string | null = null): string {
  const q = new URLSearchParams(base);
  for (const k of ['view', 'project', 'session', 'repository', 'range', 'from', 'to', 'machine']) q.delete(k);
  q.set('view', nav.view);
  if (nav.project && !isTopView(nav.view)) q.set('project', nav.project);
  if (nav.session) q.set('session', nav.session);
  if (nav.repository) q.set('repository', nav.repository);
  q.set('range', rangeToString(range));
  if (machine !== null) q.set('machine', machine);
  return `?${q.toString()}`;
}

function loadNavSession(): Nav | null {
  try {
    const v = JSON.parse(readStore(KEYS.nav, 'session') ?? 'null') as Partial<Nav> | null;
    return v && typeof v === 'object' ? normalizeNav(v) : null;
  } catch {
    return null;
  }
}

/** Remembers where the user is: cost:nav for this tab, cost:view for the last top-level tab. */
export function saveNav(nav: Nav): void {
  // The repository only where it applies, so every other nav keeps its stored shape.
  const { repository, ...rest } = nav;
  writeStore(KEYS.nav, JSON.stringify(repository === null ? rest : nav), 'session');
  if (isTopView(nav.view)) writeStore(KEYS.view, nav.view);
}

/** Start-up state: the URL wins, then this tab's cost:nav, then the last tab (cost:view); range from URL, then cost:range. */
export function initialState(search: string = location.search): { nav: Nav; range: RangeSel; scope: string | null } {
  const url = fromUrl(search);
  const lastView = readStore(KEYS.view);
  const nav =
    url.nav ??
    loadNavSession() ??
    normalizeNav({ view: lastView === 'insights' || lastView === 'sessions' ? lastView : 'overview' });
  const range = url.range ?? parseRangeString(readStore(KEYS.range)) ?? DEFAULT_RANGE;
  return { nav, range, scope: loadScope() };
}
