import { LitElement, css, html } from 'lit';
import { api } from '../api.ts';
import type { Command } from '../keys.ts';
import type { TopView } from '../state.ts';
import { focusFirstRow, focusRowWhenShown } from '../table-focus.ts';
import { HubController } from '../controllers/hub.ts';
import { KeysController } from '../controllers/keys.ts';
import { NavigationController } from '../controllers/navigation.ts';
import { LiveFeed } from '../controllers/live-feed.ts';
import { RefreshClock } from '../controllers/refresh-clock.ts';
import { TabTitle } from '../controllers/tab-title.ts';
import { ThemeController } from '../controllers/theme.ts';
import type { CostHelpOverlay } from './cost-help-overlay.ts';
import type { CostToast } from './cost-toast.ts';
import type { CostUsageDialog } from './cost-usage-dialog.ts';
import './cost-top-bar.ts';
import './cost-usage-dialog.ts';
import './cost-help-overlay.ts';
import './cost-toast.ts';
import { adoptDocumentStyles, base, buttons } from './shared-styles.ts';
import './cost-budget-alerts.ts';
import './cost-limit-alerts.ts';

const styles = css`
  .content {
    display: block;
    max-width: 1440px;
    margin: 0 auto;
    padding: var(--space-5) var(--space-5) var(--space-6);
  }

  .crumbs {
    margin: calc(-1 * var(--space-2)) 0 var(--space-3);
  }

  .back {
    padding-left: var(--space-2);
    color: var(--ink-2);
  }

  .back:hover {
    color: var(--ink-1);
  }

  .back-arrow {
    font-size: var(--fs-md);
  }

  @media (max-width: 900px) {
    .content {
      padding-left: var(--space-4);
      padding-right: var(--space-4);
    }
  }
`;
adoptDocumentStyles(base, buttons, styles);

/**
 * The dashboard shell: composes the navigation (view, range, scope, machine, URL), the refresh clock, the theme, the
 * hub connection and the keys, runs the commands, and renders the top bar and the current view, which gets `range`,
 * `scope` or `project`/`session`, and `refreshKey` (bumped to refetch silently). Views report back with bubbling
 * `navigate`, `scope`, `machine`, `range-change` and `open-usage` events. Light DOM: it holds the top bar (see there),
 * the overlays, and <main id="main">, the skip link's target.
 */
export class CostApp extends LitElement {
  // Controllers connect in the order they are added: the theme is on <body> before the first render.
  private readonly theme = new ThemeController(this, {
    framed: () => this.hub.framed,
    pickTheme: (mode, colorTheme) => this.hub.pickTheme(mode, colorTheme),
  });
  readonly navigation = new NavigationController(this);
  private readonly clock = new RefreshClock(this, (message) => this.toast(message));
  private readonly tab = new TabTitle(this, () => this.navigation.scope, () => this.openName());
  private readonly live = new LiveFeed(this, () => void this.clock.refresh(false), () => this.tab.refresh(true));
  private readonly hub: HubController = new HubController(this, {
    onProject: (p) => this.navigation.setScope(p?.encoded ?? null, p?.name ?? null, false),
    onSessionAction: (session) => {
      if (session) this.navigation.navigate({ view: 'detail', session, project: null });
    },
    onActive: (active) => this.clock.setActive(active),
    onThemes: (themes) => this.theme.setThemes(themes),
    onTheme: (mode, colorTheme) => this.theme.fromHub(mode, colorTheme),
  });
  private unsubscribe: (() => void) | null = null;

  constructor() {
    super();
    new KeysController(this, { forwards: (e) => this.hub.forwards(e), run: (cmd) => this.run(cmd) });
  }

  protected override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // On the host, not the top bar: views ask too (the Insights block card for the dialog).
    this.addEventListener('open-usage', this.onOpenUsage);
    this.unsubscribe = api.onError((err, url) => {
      // The usage dialog and the usage drivers panel show their own errors in place.
      if (!url.startsWith('/api/usage-limits') && !url.startsWith('/api/usage-drivers')) this.toast(err.message);
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('open-usage', this.onOpenUsage);
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private onOpenUsage = (): void => this.run('usage');

  run(cmd: Command): void {
    switch (cmd) {
      case 'toggle-mode':
        return this.theme.toggleMode();
      case 'usage':
        return this.querySelector<CostUsageDialog>('cost-usage-dialog')?.open();
      case 'help': {
        const help = this.querySelector<CostHelpOverlay>('cost-help-overlay');
        if (!help) return;
        // Read when opened: the hub's labels arrive with its welcome, after the first render.
        help.hubKeys = this.hub.hubKeys();
        return help.open();
      }
      case 'up':
        return this.goUp();
      case 'first-row':
        return void focusFirstRow(this.querySelector('main') ?? this);
      case 'refresh':
        return void this.clock.refresh(true);
      case 'overview':
      case 'insights':
      case 'sessions':
        return this.navigation.navigate({ view: cmd });
      case 'range-prev':
        return this.navigation.stepRange(-1);
      case 'range-next':
        return this.navigation.stepRange(1);
    }
  }

  /** Up a level (session -> project -> the last tab), then back on the row of what was open once the view shows it. */
  private goUp(): void {
    const n = this.navigation.nav;
    const from = n.session ?? n.project ?? n.repository;
    this.navigation.up();
    const to = this.navigation.nav;
    if (from && to !== n) void focusRowWhenShown(this.querySelector('main') ?? this, from, () => this.navigation.nav === to);
  }

  /** What the tab's title names besides the figures: the open project, repository or session, else the scope. */
  private openName(): string | null {
    const { nav: n, scopeName } = this.navigation;
    if (n.view === 'detail' && n.session) return `session ${n.session.slice(0, 8)}`;
    // The encoded folder name as is: its dashes cannot be told from the path's separators.
    if (n.view === 'project' && n.project) return n.project.replace(/^-/, '');
    if (n.view === 'repository' && n.repository) return n.repository.split(/[\\/]/).filter(Boolean).at(-1) ?? n.repository;
    return scopeName;
  }

  private toast(message: string): void {
    this.querySelector<CostToast>('cost-toast')?.show(message);
  }

  private renderView() {
    const { nav: n, range, scope, machine } = this.navigation;
    const k = this.clock.refreshKey;
    switch (n.view) {
      case 'overview':
        return html`<cost-overview-view .range=${range} .scope=${scope} .machine=${machine} .refreshKey=${k}></cost-overview-view>`;
      case 'insights':
        return html`<cost-insights-view .range=${range} .scope=${scope} .machine=${machine} .refreshKey=${k}></cost-insights-view>`;
      case 'sessions':
        return html`<cost-sessions-view .range=${range} .scope=${scope} .machine=${machine} .refreshKey=${k}></cost-sessions-view>`;
      case 'project':
        return html`<cost-project-view .range=${range} .scope=${scope} .project=${n.project ?? ''} .refreshKey=${k}></cost-project-view>`;
      case 'detail':
        return html`<cost-session-view .range=${range} .session=${n.session ?? ''} .refreshKey=${k}></cost-session-view>`;
      case 'repository':
        return html`<cost-repository-view .range=${range} .scope=${scope} .repository=${n.repository ?? ''} .refreshKey=${k}></cost-repository-view>`;
    }
  }

  protected override render() {
    const nav = this.navigation;
    const view = nav.nav.view;
    const sub = view === 'project' || view === 'detail' || view === 'repository';
    return html`<cost-top-bar
        .view=${view}
        .range=${nav.range}
        .scope=${nav.scope}
        .scopeName=${nav.scopeName}
        .machine=${nav.machine}
        .mode=${this.theme.mode}
        .colorTheme=${this.theme.colorTheme}
        .themes=${this.theme.themes}
        .indexing=${this.clock.indexing}
        ?refreshing=${this.clock.refreshing}
        .updatedAt=${this.live.updatedAt}
        ?live=${this.live.connected}
        @tab=${(e: CustomEvent<{ view: TopView }>) => nav.navigate({ view: e.detail.view })}
        @scope-clear=${() => nav.setScope(null, null)}
        @machine-clear=${() => nav.setMachine(null)}
        @theme-pick=${(e: CustomEvent<{ colorTheme: string }>) => this.theme.pick(this.theme.mode, e.detail.colorTheme)}
        @mode-toggle=${() => this.theme.toggleMode()}
        @refresh=${() => void this.clock.refresh(true)}
        @open-help=${() => this.run('help')}
      ></cost-top-bar>
      <main class="content" id="main" @budgets-changed=${() => void this.clock.refresh(false)}>
        ${sub
          ? html`<div class="crumbs">
              <button class="btn ghost back" type="button" @click=${() => this.goUp()} title="Go up (Backspace)">
                <span class="back-arrow" aria-hidden="true">←</span>
                ${view === 'detail' && nav.nav.project ? 'Project' : ({ overview: 'Overview', insights: 'Insights', sessions: 'Sessions' } as const)[nav.lastTop]}
              </button>
            </div>`
          : ''}
        <cost-budget-alerts .scope=${nav.scope} .refreshKey=${this.clock.refreshKey}></cost-budget-alerts>
        <cost-limit-alerts .refreshKey=${this.clock.refreshKey}></cost-limit-alerts>
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
