import { LitElement, html } from 'lit';
import type { IndexingState, ProjectRow } from '../../../src/http/api-types.ts';
import { api } from '../api.ts';
import { connectHub } from '../hub-bridge.ts';
import type { HubBridge } from '../hub-bridge.ts';
import { commandFor } from '../keys.ts';
import type { Command } from '../keys.ts';
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
import { THEMES, applyTheme, isKnownTheme, loadThemePref, saveThemePref } from '../theme.ts';
import type { Mode } from '../theme.ts';
import type { CostHelpOverlay } from './cost-help-overlay.ts';
import type { CostToast } from './cost-toast.ts';
import type { CostUsageDialog } from './cost-usage-dialog.ts';
import './cost-top-bar.ts';
import './cost-usage-dialog.ts';
import './cost-help-overlay.ts';
import './cost-toast.ts';
import './cost-budget-alerts.ts';

const REFRESH_MS = 30_000;
/** While the first index build runs, totals grow quickly: refresh more often. */
const INDEXING_REFRESH_MS = 5_000;
const TICK_MS = 5_000;

interface NavigateDetail {
  view: View;
  project?: string | null;
  session?: string | null;
  repository?: string | null;
}

/**
 * The dashboard shell. Owns navigation (URL + storage), the range, the project scope, the theme, the refresh clock and
 * the hub connection; renders the top bar and the current view, which gets `range`, `scope` or `project`/`session`, and
 * `refreshKey` (bumped to refetch silently). Views report back with bubbling `navigate` and `scope` events.
 */
export class CostApp extends LitElement {
  static override properties = {
    _nav: { state: true },
    _range: { state: true },
    _scope: { state: true },
    _scopeName: { state: true },
    _machine: { state: true },
    _mode: { state: true },
    _colorTheme: { state: true },
    _themes: { state: true },
    _indexing: { state: true },
    _refreshKey: { state: true },
    _refreshing: { state: true },
  };

  private declare _nav: Nav;
  private declare _range: RangeSel;
  private declare _scope: string | null;
  private declare _scopeName: string | null;
  /** The machine filter (a label), null for every machine; in the URL only. */
  private declare _machine: string | null;
  private declare _mode: Mode;
  private declare _colorTheme: string;
  private declare _themes: { id: string; label: string }[];
  private declare _indexing: IndexingState | null;
  private declare _refreshKey: number;
  private declare _refreshing: boolean;

  private bridge: HubBridge | null = null;
  private hubActive = true;
  private lastRefresh = Date.now();
  private lastTop: TopView = 'overview';
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsubscribe: (() => void)[] = [];

  constructor() {
    super();
    const init = initialState();
    this._nav = init.nav;
    this._range = init.range;
    this._scope = init.scope;
    this._scopeName = null;
    this._machine = machineFromUrl(location.search);
    const pref = loadThemePref();
    this._mode = pref.mode;
    this._colorTheme = isKnownTheme(pref.colorTheme) ? pref.colorTheme : THEMES[0]?.id ?? 'ember';
    this._themes = THEMES.map(({ id, label }) => ({ id, label }));
    this._indexing = null;
    this._refreshKey = 0;
    this._refreshing = false;
    if (this._nav.view === 'overview' || this._nav.view === 'insights') this.lastTop = this._nav.view;
  }

  protected override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    applyTheme({ mode: this._mode, colorTheme: this._colorTheme });
    this.syncUrl('replace');
    saveNav(this._nav);
    window.addEventListener('popstate', this.onPopState);
    window.addEventListener('keydown', this.onKeyDown);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.addEventListener('navigate', this.onNavigate as EventListener);
    this.addEventListener('scope', this.onScopeEvent as EventListener);
    this.addEventListener('machine', this.onMachineEvent as EventListener);
    // On the host, not the top bar: views ask too (the Insights block card for the dialog, an empty range for a range).
    this.addEventListener('open-usage', this.onOpenUsage);
    this.addEventListener('range-change', this.onRangeChange as EventListener);
    this.unsubscribe.push(
      api.onIndexing((s) => {
        if (!this._indexing || s.done !== this._indexing.done || s.filesDone !== this._indexing.filesDone || s.bytesDone !== this._indexing.bytesDone)
          this._indexing = s;
      }),
      api.onError((err, url) => {
        // The usage dialog and the usage drivers panel show their own errors in place.
        if (!url.startsWith('/api/usage-limits') && !url.startsWith('/api/usage-drivers')) this.toast(err.message);
      }),
    );
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.bridge = connectHub({
      onProject: (p) => this.setScope(p?.encoded ?? null, p?.name ?? null, false),
      onSessionAction: (session) => {
        if (session) this.navigate({ view: 'detail', session, project: null });
      },
      onActive: (active) => {
        this.hubActive = active;
        if (active) this.tick();
      },
      onThemes: (themes) => {
        if (themes.length) this._themes = themes;
      },
      onTheme: (mode, colorTheme) => {
        this._mode = mode;
        this._colorTheme = colorTheme;
        applyTheme({ mode, colorTheme }, true);
        // Kept so boot.js paints the hub's mode on the next load, matching the hub's cached vars.
        saveThemePref({ mode, colorTheme });
      },
    });
    void this.resolveScopeName();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('keydown', this.onKeyDown);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.removeEventListener('navigate', this.onNavigate as EventListener);
    this.removeEventListener('scope', this.onScopeEvent as EventListener);
    this.removeEventListener('machine', this.onMachineEvent as EventListener);
    this.removeEventListener('open-usage', this.onOpenUsage);
    this.removeEventListener('range-change', this.onRangeChange as EventListener);
    for (const u of this.unsubscribe.splice(0)) u();
    if (this.timer) clearInterval(this.timer);
  }

  // ---- navigation ----

  private syncUrl(how: 'push' | 'replace'): void {
    const url = toUrl(this._nav, this._range, location.search, this._machine) + location.hash;
    if (url === location.search + location.hash) return;
    if (how === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  navigate(next: Partial<Nav> & { view: View }): void {
    const nav = normalizeNav(next);
    const same = nav.view === this._nav.view && nav.project === this._nav.project && nav.session === this._nav.session;
    if (same && nav.repository === this._nav.repository) return;
    this._nav = nav;
    if (nav.view === 'overview' || nav.view === 'insights') this.lastTop = nav.view;
    saveNav(nav);
    this.syncUrl('push');
    window.scrollTo({ top: 0 });
  }

  private up(): void {
    const n = this._nav;
    if (n.view === 'detail' && n.project) this.navigate({ view: 'project', project: n.project });
    else if (n.view === 'detail' || n.view === 'project' || n.view === 'repository') this.navigate({ view: this.lastTop });
  }

  private onPopState = (): void => {
    const url = fromUrl(location.search);
    this._machine = machineFromUrl(location.search);
    this._nav = url.nav ?? normalizeNav({ view: 'overview' });
    if (this._nav.view === 'overview' || this._nav.view === 'insights') this.lastTop = this._nav.view;
    if (url.range && !sameRange(url.range, this._range)) {
      this._range = url.range;
      saveRange(url.range);
    }
    saveNav(this._nav);
  };

  private onNavigate = (e: CustomEvent<NavigateDetail>): void => {
    const d = e.detail;
    if (!d || typeof d !== 'object') return;
    e.stopPropagation();
    this.navigate({ view: d.view, project: d.project ?? null, session: d.session ?? null, repository: d.repository ?? null });
  };

  // ---- range and scope ----

  setRange(range: RangeSel): void {
    if (sameRange(range, this._range)) return;
    this._range = range;
    saveRange(range);
    this.syncUrl('replace');
  }

  private stepRange(dir: 1 | -1): void {
    const i = RANGE_PRESETS.findIndex((p) => sameRange(p.range, this._range));
    const next = RANGE_PRESETS[i < 0 ? 2 : Math.max(0, Math.min(RANGE_PRESETS.length - 1, i + dir))];
    if (next) this.setRange(next.range);
  }

  /**
   * `project`: a folder id or a repository scope (state.ts). `persist` is false for the hub's project: the hub owns
   * it, and a standalone reload should not inherit it.
   */
  setScope(project: string | null, name: string | null, persist = true): void {
    const p = isScope(project) ? project : null;
    this._scopeName = p ? name : null;
    if (p === this._scope) return;
    this._scope = p;
    if (persist) saveScope(p);
    if (p && !name) void this.resolveScopeName();
  }

  private onOpenUsage = (): void => this.run('usage');

  private onRangeChange = (e: CustomEvent<{ range: RangeSel }>): void => this.setRange(e.detail.range);

  private onScopeEvent = (e: CustomEvent<{ project: string | null; name?: string }>): void => {
    if (!e.detail || typeof e.detail !== 'object') return;
    e.stopPropagation();
    this.setScope(e.detail.project, e.detail.name ?? null);
  };

  setMachine(machine: string | null): void {
    if (machine === this._machine) return;
    this._machine = machine;
    this.syncUrl('replace');
  }

  private onMachineEvent = (e: CustomEvent<{ machine: string | null }>): void => {
    if (!e.detail || typeof e.detail !== 'object') return;
    e.stopPropagation();
    this.setMachine(typeof e.detail.machine === 'string' ? e.detail.machine : null);
  };

  /** After a reload only the encoded name is stored; the project list (cached in memory) has the display name. */
  private async resolveScopeName(): Promise<void> {
    const scope = this._scope;
    if (!scope || this._scopeName) return;
    try {
      const rows = await api.get<ProjectRow[]>('/api/projects', {});
      const repository = scopeRepository(scope);
      const row = Array.isArray(rows) ? rows.find((r) => (repository === null ? r.id === scope : r.repository.id === repository)) : undefined;
      const name = row && (repository === null ? row.name : row.repository.name);
      if (name && this._scope === scope && !this._scopeName) this._scopeName = name;
    } catch {
      /* the chip keeps the encoded name; the error is already a toast */
    }
  }

  // ---- theme ----

  private setTheme(mode: Mode, colorTheme: string): void {
    this._mode = mode;
    this._colorTheme = colorTheme;
    const framed = this.bridge?.framed ?? false;
    applyTheme({ mode, colorTheme }, framed);
    saveThemePref({ mode, colorTheme });
    this.bridge?.pickTheme(mode, colorTheme);
  }

  private toggleMode(): void {
    this.setTheme(this._mode === 'dark' ? 'light' : 'dark', this._colorTheme);
  }

  // ---- refresh ----

  /** Manual: also clears the server's 30 s cache. Auto: only our in-memory cache. Views refetch on the new key. */
  async refresh(manual: boolean): Promise<void> {
    if (this._refreshing) return;
    this.lastRefresh = Date.now();
    if (manual) {
      this._refreshing = true;
      try {
        await api.post('/api/refresh');
      } catch (err) {
        this.toast(`Refresh failed: ${(err as Error).message}`);
      } finally {
        this._refreshing = false;
      }
    }
    api.invalidate();
    this._refreshKey++;
  }

  private tick(): void {
    if (document.hidden || !this.hubActive) return;
    const every = this._indexing && !this._indexing.done ? INDEXING_REFRESH_MS : REFRESH_MS;
    if (Date.now() - this.lastRefresh >= every) void this.refresh(false);
  }

  private onVisibility = (): void => {
    if (!document.hidden) this.tick();
  };

  // ---- keys ----

  private overlayOpen(): boolean {
    if (document.querySelector('dialog[open]')) return true;
    try {
      return document.querySelector(':popover-open') !== null;
    } catch {
      return false;
    }
  }

  private onKeyDown = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || this.bridge?.forwards(e)) return;
    const cmd = commandFor(e);
    if (!cmd) return;
    // An open dialog or popover owns the keyboard (Escape closes it natively); only the usage combo still works.
    if (this.overlayOpen() && cmd !== 'usage') return;
    e.preventDefault();
    this.run(cmd);
  };

  run(cmd: Command): void {
    switch (cmd) {
      case 'toggle-mode':
        return this.toggleMode();
      case 'usage':
        return this.querySelector<CostUsageDialog>('cost-usage-dialog')?.open();
      case 'help': {
        const help = this.querySelector<CostHelpOverlay>('cost-help-overlay');
        if (!help) return;
        // Read when opened: the hub's labels arrive with its welcome, after the first render.
        help.hubKeys = this.bridge?.hubKeys() ?? [];
        return help.open();
      }
      case 'up':
        return this.up();
      case 'refresh':
        return void this.refresh(true);
      case 'overview':
      case 'insights':
        return this.navigate({ view: cmd });
      case 'range-prev':
        return this.stepRange(-1);
      case 'range-next':
        return this.stepRange(1);
    }
  }

  private toast(message: string): void {
    this.querySelector<CostToast>('cost-toast')?.show(message);
  }

  // ---- render ----

  protected override updated(): void {
    const names: Record<View, string> = { overview: 'Overview', insights: 'Insights', project: 'Project', detail: 'Session', repository: 'Repository' };
    document.title = `${names[this._nav.view]} · ${rangeLabel(this._range)} · Cost`;
  }

  private renderView() {
    const n = this._nav;
    const k = this._refreshKey;
    switch (n.view) {
      case 'overview':
        return html`<cost-overview-view .range=${this._range} .scope=${this._scope} .machine=${this._machine} .refreshKey=${k}></cost-overview-view>`;
      case 'insights':
        return html`<cost-insights-view .range=${this._range} .scope=${this._scope} .machine=${this._machine} .refreshKey=${k}></cost-insights-view>`;
      case 'project':
        return html`<cost-project-view .range=${this._range} .scope=${this._scope} .project=${n.project ?? ''} .refreshKey=${k}></cost-project-view>`;
      case 'detail':
        return html`<cost-session-view .range=${this._range} .session=${n.session ?? ''} .refreshKey=${k}></cost-session-view>`;
      case 'repository':
        return html`<cost-repository-view .range=${this._range} .scope=${this._scope} .repository=${n.repository ?? ''} .refreshKey=${k}></cost-repository-view>`;
    }
  }

  protected override render() {
    const sub = this._nav.view === 'project' || this._nav.view === 'detail' || this._nav.view === 'repository';
    return html`<cost-top-bar
        .view=${this._nav.view}
        .range=${this._range}
        .scope=${this._scope}
        .scopeName=${this._scopeName}
        .machine=${this._machine}
        .mode=${this._mode}
        .colorTheme=${this._colorTheme}
        .themes=${this._themes}
        .indexing=${this._indexing}
        ?refreshing=${this._refreshing}
        @tab=${(e: CustomEvent<{ view: TopView }>) => this.navigate({ view: e.detail.view })}
        @scope-clear=${() => this.setScope(null, null)}
        @machine-clear=${() => this.setMachine(null)}
        @theme-pick=${(e: CustomEvent<{ colorTheme: string }>) => this.setTheme(this._mode, e.detail.colorTheme)}
        @mode-toggle=${() => this.toggleMode()}
        @refresh=${() => void this.refresh(true)}
        @open-help=${() => this.run('help')}
      ></cost-top-bar>
      <main class="content" id="main" @budgets-changed=${() => void this.refresh(false)}>
        ${sub
          ? html`<div class="crumbs">
              <button class="btn ghost back" type="button" @click=${() => this.up()} title="Go up (Backspace)">
                <span class="back-arrow" aria-hidden="true">←</span>
                ${this._nav.view === 'detail' && this._nav.project ? 'Project' : this.lastTop === 'insights' ? 'Insights' : 'Overview'}
              </button>
            </div>`
          : ''}
        <cost-budget-alerts .scope=${this._scope} .refreshKey=${this._refreshKey}></cost-budget-alerts>
        ${this.renderView()}
      </main>
      <cost-usage-dialog></cost-usage-dialog>
      <cost-help-overlay></cost-help-overlay>
      <cost-toast></cost-toast>`;
  }
}

customElements.define('cost-app', CostApp);

declare global {
  interface HTMLElementTagNameMap {
    'cost-app': CostApp;
  }
}
