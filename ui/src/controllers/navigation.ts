import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ProjectRow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import {
  RANGE_PRESETS,
  fromUrl,
  initialState,
  isScope,
  machineFromUrl,
  normalizeNav,
  rangeLabel,
  sameRange,
  saveNav,
  saveRange,
  saveScope,
  scopeRepository,
  toUrl,
} from '../state.ts';
import type { Nav, RangeSel, TopView, View } from '../state.ts';
import { isTopView } from '../state.ts';

interface NavigateDetail {
  view: View;
  project?: string | null;
  session?: string | null;
  repository?: string | null;
}

const TITLES: Record<View, string> = { overview: 'Overview', insights: 'Insights', sessions: 'Sessions', project: 'Project', detail: 'Session', repository: 'Repository' };

/**
 * Where the dashboard is: the view (URL + storage), the range, the project scope and the machine filter, kept in step
 * with the URL, history and the document title. Views ask for changes with bubbling `navigate`, `scope`, `machine` and
 * `range-change` events, which it handles on the host.
 */
export class NavigationController implements ReactiveController {
  nav: Nav;
  range: RangeSel;
  scope: string | null;
  /** The scope's display name; null until known (after a reload only the encoded name is stored). */
  scopeName: string | null = null;
  /** The machine filter (a label), null for every machine; in the URL only. */
  machine: string | null;
  /** The top view that sub-views go back up to. */
  lastTop: TopView = 'overview';

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    const init = initialState();
    this.nav = init.nav;
    this.range = init.range;
    this.scope = init.scope;
    this.machine = machineFromUrl(location.search);
    this.rememberTop();
    host.addController(this);
  }

  hostConnected(): void {
    this.syncUrl('replace');
    saveNav(this.nav);
    window.addEventListener('popstate', this.onPopState);
    this.host.addEventListener('navigate', this.onNavigate as EventListener);
    this.host.addEventListener('scope', this.onScopeEvent as EventListener);
    this.host.addEventListener('machine', this.onMachineEvent as EventListener);
    this.host.addEventListener('range-change', this.onRangeChange as EventListener);
    void this.resolveScopeName();
  }

  hostDisconnected(): void {
    window.removeEventListener('popstate', this.onPopState);
    this.host.removeEventListener('navigate', this.onNavigate as EventListener);
    this.host.removeEventListener('scope', this.onScopeEvent as EventListener);
    this.host.removeEventListener('machine', this.onMachineEvent as EventListener);
    this.host.removeEventListener('range-change', this.onRangeChange as EventListener);
  }

  hostUpdated(): void {
    document.title = `${TITLES[this.nav.view]} · ${rangeLabel(this.range)} · Cost`;
  }

  navigate(next: Partial<Nav> & { view: View }): void {
    const nav = normalizeNav(next);
    const same = nav.view === this.nav.view && nav.project === this.nav.project && nav.session === this.nav.session;
    if (same && nav.repository === this.nav.repository) return;
    this.nav = nav;
    this.rememberTop();
    saveNav(nav);
    this.syncUrl('push');
    window.scrollTo({ top: 0 });
    this.host.requestUpdate();
  }

  /** Session -> its project (when it came from one) -> the last top view. */
  up(): void {
    const n = this.nav;
    if (n.view === 'detail' && n.project) this.navigate({ view: 'project', project: n.project });
    else if (n.view === 'detail' || n.view === 'project' || n.view === 'repository') this.navigate({ view: this.lastTop });
  }

  setRange(range: RangeSel): void {
    if (sameRange(range, this.range)) return;
    this.range = range;
    saveRange(range);
    this.syncUrl('replace');
    this.host.requestUpdate();
  }

  /** The previous or next range preset; from a range that is no preset, the 3-day one. */
  stepRange(dir: 1 | -1): void {
    const i = RANGE_PRESETS.findIndex((p) => sameRange(p.range, this.range));
    const next = RANGE_PRESETS[i < 0 ? 2 : Math.max(0, Math.min(RANGE_PRESETS.length - 1, i + dir))];
    if (next) this.setRange(next.range);
  }

  /**
   * `project`: a folder id or a repository scope (state.ts). `persist` is false for the hub's project: the hub owns
   * it, and a standalone reload should not inherit it.
   */
  setScope(project: string | null, name: string | null, persist = true): void {
    const p = isScope(project) ? project : null;
    this.scopeName = p ? name : null;
    this.host.requestUpdate();
    if (p === this.scope) return;
    this.scope = p;
    if (persist) saveScope(p);
    if (p && !name) void this.resolveScopeName();
  }

  setMachine(machine: string | null): void {
    if (machine === this.machine) return;
    this.machine = machine;
    this.syncUrl('replace');
    this.host.requestUpdate();
  }

  private rememberTop(): void {
    if (isTopView(this.nav.view)) this.lastTop = this.nav.view;
  }

  private syncUrl(how: 'push' | 'replace'): void {
    const url = toUrl(this.nav, this.range, location.search, this.machine) + location.hash;
    if (url === location.search + location.hash) return;
    if (how === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  private onPopState = (): void => {
    const url = fromUrl(location.search);
    this.machine = machineFromUrl(location.search);
    this.nav = url.nav ?? normalizeNav({ view: 'overview' });
    this.rememberTop();
    if (url.range && !sameRange(url.range, this.range)) {
      this.range = url.range;
      saveRange(url.range);
    }
    saveNav(this.nav);
    this.host.requestUpdate();
  };

  private onNavigate = (e: CustomEvent<NavigateDetail>): void => {
    const d = e.detail;
    if (!d || typeof d !== 'object') return;
    e.stopPropagation();
    this.navigate({ view: d.view, project: d.project ?? null, session: d.session ?? null, repository: d.repository ?? null });
  };

  private onRangeChange = (e: CustomEvent<{ range: RangeSel }>): void => this.setRange(e.detail.range);

  private onScopeEvent = (e: CustomEvent<{ project: string | null; name?: string }>): void => {
    if (!e.detail || typeof e.detail !== 'object') return;
    e.stopPropagation();
    this.setScope(e.detail.project, e.detail.name ?? null);
  };

  private onMachineEvent = (e: CustomEvent<{ machine: string | null }>): void => {
    if (!e.detail || typeof e.detail !== 'object') return;
    e.stopPropagation();
    this.setMachine(typeof e.detail.machine === 'string' ? e.detail.machine : null);
  };

  /** After a reload only the encoded name is stored; the project list (cached in memory) has the display name. */
  private async resolveScopeName(): Promise<void> {
    const scope = this.scope;
    if (!scope || this.scopeName) return;
    try {
      const rows = await api.get<ProjectRow[]>('/api/projects', {});
      const repository = scopeRepository(scope);
      const row = Array.isArray(rows) ? rows.find((r) => (repository === null ? r.id === scope : r.repository.id === repository)) : undefined;
      const name = row && (repository === null ? row.name : row.repository.name);
      if (name && this.scope === scope && !this.scopeName) {
        this.scopeName = name;
        this.host.requestUpdate();
      }
    } catch {
      /* the chip keeps the encoded name; the error is already a toast */
    }
  }
}
