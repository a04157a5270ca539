import { LitElement, css, html } from 'lit';
import type { IndexingState } from '../../../src/shared/api-types.ts';
import { DEFAULT_RANGE } from '../state.ts';
import type { RangeSel, TopView, View } from '../state.ts';
import { isTopView } from '../state.ts';
import type { Mode } from '../theme.ts';
import { icons } from './icons.ts';
import './cost-range-picker.ts';
import './cost-scope-chip.ts';
import './cost-theme-picker.ts';
import './cost-indexing.ts';
import './cost-updated-note.ts';
import { adoptDocumentStyles, base, buttons, spinners } from './shared-styles.ts';

const styles = css`
  cost-top-bar {
    display: block;
    position: sticky;
    top: 0;
    z-index: 20;
  }

  .top-bar {
    background: color-mix(in srgb, var(--bg-surface) 92%, transparent);
    backdrop-filter: blur(8px);
    border-bottom: 1px solid var(--border);
  }

  .top-row,
  .range-row {
    display: flex;
    align-items: center;
    gap: var(--space-3);
    max-width: 1440px;
    margin: 0 auto;
    padding: 0 var(--space-5);
  }

  .top-row {
    height: 56px;
  }

  .range-row {
    flex-wrap: wrap;
    padding-bottom: var(--space-3);
  }

  .brand {
    display: inline-flex;
    align-items: center;
    gap: var(--space-2);
    color: var(--ink-1);
    text-decoration: none;
    font-weight: 650;
    font-size: var(--fs-lg);
    letter-spacing: -0.01em;
    border-radius: var(--radius-sm);
    padding: 2px 4px 2px 0;
  }

  .brand-mark {
    display: inline-grid;
    place-items: center;
    width: 26px;
    height: 26px;
    border-radius: 7px;
    border: 1.5px solid var(--accent);
    background: var(--selected-bg);
    color: var(--ink-1);
    font-weight: 800;
    font-size: 15px;
  }

  .tabs {
    display: flex;
    gap: 2px;
    margin-left: var(--space-3);
  }

  .tab {
    display: inline-flex;
    align-items: center;
    height: 32px;
    padding: 0 var(--space-3);
    border-radius: 8px;
    color: var(--ink-2);
    text-decoration: none;
    font-weight: 550;
  }

  .tab:hover {
    color: var(--ink-1);
    background: var(--bg-hover);
  }

  .tab[aria-current='page'] {
    color: var(--ink-1);
    background: var(--selected-bg);
    box-shadow: inset 0 -2px 0 var(--accent);
  }

  .tab[aria-current='page']:focus-visible {
    box-shadow: var(--focus-ring);
  }

  .spacer {
    flex: 1;
  }

  .tools {
    display: flex;
    align-items: center;
    gap: var(--space-2);
  }

  @media (max-width: 900px) {
    .top-row,
    .range-row {
      padding-left: var(--space-4);
      padding-right: var(--space-4);
    }

    .tabs {
      margin-left: var(--space-2);
    }

    .btn-label {
      display: none;
    }

    [data-action='usage'] {
      width: 32px;
      padding: 0;
    }
  }

  /* Three tabs beside the tools: below this the brand keeps its mark only and the tabs draw closer. */
  @media (max-width: 760px) {
    .brand-name {
      display: none;
    }

    .tab {
      padding: 0 var(--space-2);
    }
  }

  @media (max-width: 560px) {
    .updated {
      display: none;
    }

    .top-row {
      gap: var(--space-2);
    }
  }

  /* A phone or a thin hub pane: the tool buttons take a row of their own rather than run off the edge. */
  @media (max-width: 460px) {
    .top-row {
      flex-wrap: wrap;
      height: auto;
      min-height: 56px;
      padding-top: var(--space-2);
      padding-bottom: var(--space-2);
      row-gap: var(--space-2);
    }
  }
`;
adoptDocumentStyles(base, buttons, spinners, styles);

/**
 * The sticky bar: product name, Overview/Insights tabs, scope chip, range picker, indexing pill and the tool buttons.
 * It holds no state of its own: every control fires an event that cost-app handles. Light DOM, as the theme picker
 * it holds: the hub's swatch rules are a document style sheet.
 *
 * @fires tab - `{view: 'overview' | 'insights'}`.
 * @fires refresh - refresh now.
 * @fires open-usage - open the Plan usage dialog.
 * @fires open-help - open the shortcut overlay.
 * @fires mode-toggle - switch light/dark.
 * (cost-range-picker, cost-scope-chip and cost-theme-picker fire range-change, scope-clear and theme-pick through it.)
 */
export class CostTopBar extends LitElement {
  static override properties = {
    view: {},
    range: { attribute: false },
    scope: {},
    scopeName: { attribute: false },
    machine: { attribute: false },
    mode: {},
    colorTheme: { attribute: false },
    themes: { attribute: false },
    indexing: { attribute: false },
    refreshing: { type: Boolean },
    updatedAt: { attribute: false },
    live: { type: Boolean },
  };

  declare view: View;
  declare range: RangeSel;
  declare scope: string | null;
  declare scopeName: string | null;
  /** The machine filter, null for every machine. */
  declare machine: string | null;
  declare mode: Mode;
  declare colorTheme: string;
  declare themes: { id: string; label: string }[];
  declare indexing: IndexingState | null;
  declare refreshing: boolean;
  /** When the newest figures arrived (epoch ms), and whether they follow the index live (controllers/live-feed.ts). */
  declare updatedAt: number | null;
  declare live: boolean;

  constructor() {
    super();
    this.view = 'overview';
    this.range = DEFAULT_RANGE;
    this.scope = null;
    this.scopeName = null;
    this.machine = null;
    this.mode = 'dark';
    this.colorTheme = 'ember';
    this.themes = [];
    this.indexing = null;
    this.refreshing = false;
    this.updatedAt = null;
    this.live = false;
  }

  protected override createRenderRoot() {
    return this;
  }

  private fire(name: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private tab(view: TopView, label: string) {
    const active = this.view === view;
    return html`<a
      class="tab"
      href=${`?view=${view}`}
      data-view=${view}
      aria-current=${active ? 'page' : 'false'}
      @click=${(e: MouseEvent) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        this.fire('tab', { view });
      }}
      >${label}</a
    >`;
  }

  protected override render() {
    const showScope = isTopView(this.view);
    return html`<header class="top-bar">
      <div class="top-row">
        <a class="brand" href="?view=overview" @click=${(e: MouseEvent) => {
          e.preventDefault();
          this.fire('tab', { view: 'overview' });
        }}>
          <span class="brand-mark" aria-hidden="true">$</span>
          <span class="brand-name">Cost</span>
        </a>
        <nav class="tabs" aria-label="Views">${this.tab('overview', 'Overview')}${this.tab('insights', 'Insights')}${this.tab('sessions', 'Sessions')}</nav>
        <span class="spacer"></span>
        <cost-indexing .state=${this.indexing}></cost-indexing>
        <cost-updated-note class="updated" .at=${this.updatedAt} ?live=${this.live}></cost-updated-note>
        <div class="tools">
          <button class="icon-btn" type="button" aria-label="Refresh now" title="Refresh now (r)" @click=${() => this.fire('refresh')}>
            <span class=${this.refreshing ? 'spin' : ''}>${icons.refresh()}</span>
          </button>
          <button class="btn" type="button" data-action="usage" title="Plan usage (Ctrl+Shift+S)" @click=${() => this.fire('open-usage')}>
            ${icons.gauge()}<span class="btn-label">Plan usage</span>
          </button>
          <cost-theme-picker .themes=${this.themes} .current=${this.colorTheme} .mode=${this.mode}></cost-theme-picker>
          <button
            class="icon-btn"
            type="button"
            data-action="mode"
            aria-label=${this.mode === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'}
            title="Light / dark (t)"
            @click=${() => this.fire('mode-toggle')}
          >
            ${this.mode === 'dark' ? icons.sun() : icons.moon()}
          </button>
          <button class="icon-btn" type="button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" @click=${() => this.fire('open-help')}>
            ${icons.help()}
          </button>
        </div>
      </div>
      <div class="range-row">
        <cost-range-picker .range=${this.range}></cost-range-picker>
        ${showScope ? html`<cost-scope-chip .project=${this.scope} .name=${this.scopeName} .machine=${this.machine}></cost-scope-chip>` : ''}
      </div>
    </header>`;
  }
}

customElements.define('cost-top-bar', CostTopBar);

declare global {
  interface HTMLElementTagNameMap {
    'cost-top-bar': CostTopBar;
  }
}
