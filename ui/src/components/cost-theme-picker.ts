import { LitElement, css, html } from 'lit';
import type { Mode } from '../theme.ts';
import { icons } from './icons.ts';
import { placePopover } from './popover.ts';
import { adoptDocumentStyles, base, buttons, segmented, popover } from './shared-styles.ts';

const styles = css`
  .popover-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--space-4);
    margin-bottom: var(--space-3);
  }

  .theme-popover {
    width: min(440px, calc(100vw - 16px));
  }

  .theme-grid {
    display: grid;
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: 6px;
    max-height: min(420px, 70vh);
    overflow-y: auto;
    padding: 2px;
  }

  .theme-option {
    position: relative;
    display: flex;
    align-items: center;
    gap: var(--space-2);
    min-width: 0;
    padding: 6px;
    border: 1px solid transparent;
    border-radius: var(--radius-sm);
    background: transparent;
    color: var(--ink-1);
    font: 500 var(--fs-sm) / 1.2 var(--font-sans);
    text-align: left;
    cursor: pointer;
  }

  .theme-option:hover {
    background: var(--bg-hover);
  }

  .theme-option[aria-pressed='true'] {
    border-color: var(--accent);
    background: var(--selected-bg);
  }

  .theme-name {
    flex: 1;
    min-width: 0;
    /* Wraps rather than cut: "Synthwave '84" does not fit one line of a three-column grid. */
    white-space: normal;
  }

  .theme-check {
    /* In the corner, not in the row: its width would cut the longest name of the chosen theme. */
    position: absolute;
    top: 1px;
    right: 1px;
    display: flex;
    color: var(--ink-1);
  }

  .theme-check svg {
    width: 12px;
    height: 12px;
  }

  .swatch {
    position: relative;
    flex: none;
    width: 30px;
    height: 22px;
    border-radius: 5px;
    background: var(--sw-bg, #888);
    border: 1px solid var(--sw-border, #666);
    overflow: hidden;
  }

  .sw-accent {
    position: absolute;
    right: 3px;
    top: 3px;
    width: 8px;
    height: 8px;
    border-radius: 50%;
    background: var(--sw-accent, #e86f33);
  }

  .sw-ink {
    position: absolute;
    left: 4px;
    bottom: 8px;
    width: 14px;
    height: 2px;
    border-radius: 1px;
    background: var(--sw-ink, #fff);
  }

  .sw-ink.short {
    bottom: 4px;
    width: 9px;
  }
`;
adoptDocumentStyles(base, buttons, segmented, popover, styles);

/**
 * The palette button and its popover: one swatch per color theme and a light/dark switch. Swatch colors come from
 * `.theme-swatch-<id>` rules (ours standalone, the hub SDK's under a hub), so it renders in light DOM.
 *
 * @fires theme-pick - `{colorTheme: string}`.
 * @fires mode-toggle - the user switched light/dark.
 */
export class CostThemePicker extends LitElement {
  static override properties = {
    themes: { attribute: false },
    current: {},
    mode: {},
  };

  declare themes: { id: string; label: string }[];
  declare current: string;
  declare mode: Mode;

  constructor() {
    super();
    this.themes = [];
    this.current = '';
    this.mode = 'dark';
  }

  protected override createRenderRoot() {
    return this;
  }

  private get panel(): HTMLElement | null {
    return this.querySelector('#theme-pop');
  }

  private onToggle(e: ToggleEvent): void {
    if (e.newState !== 'open') return;
    placePopover(this.panel, this.querySelector('#theme-btn'));
    this.querySelector<HTMLElement>('.theme-option[aria-pressed="true"]')?.focus();
  }

  /** Arrow keys move between swatches (a 3-column grid). */
  private onKey(e: KeyboardEvent): void {
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 3, ArrowUp: -3 }[e.key];
    if (!step) return;
    const opts = [...this.querySelectorAll<HTMLElement>('.theme-option')];
    const i = opts.indexOf(document.activeElement as HTMLElement);
    if (i < 0) return;
    e.preventDefault();
    opts[Math.max(0, Math.min(opts.length - 1, i + step))]?.focus();
  }

  private fire(name: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  protected override render() {
    const currentLabel = this.themes.find((t) => t.id === this.current)?.label ?? this.current;
    return html`<button
        id="theme-btn"
        class="icon-btn"
        type="button"
        popovertarget="theme-pop"
        aria-label=${`Color theme: ${currentLabel}`}
        title="Color theme"
      >
        ${icons.palette()}
      </button>
      <div id="theme-pop" class="popover theme-popover" popover @toggle=${this.onToggle}>
        <div class="popover-head">
          <span class="popover-title">Theme</span>
          <div class="segmented small" role="group" aria-label="Mode">
            ${(['light', 'dark'] as const).map(
              (m) => html`<button
                type="button"
                class="seg"
                aria-pressed=${this.mode === m ? 'true' : 'false'}
                @click=${() => this.mode !== m && this.fire('mode-toggle')}
              >
                ${m === 'light' ? icons.sun() : icons.moon()}<span>${m === 'light' ? 'Light' : 'Dark'}</span>
              </button>`,
            )}
          </div>
        </div>
        <div class="theme-grid" @keydown=${this.onKey}>
          ${this.themes.map(
            (t) => html`<button
              type="button"
              class="theme-option"
              data-theme-id=${t.id}
              aria-pressed=${t.id === this.current ? 'true' : 'false'}
              @click=${() => this.fire('theme-pick', { colorTheme: t.id })}
            >
              <span class="swatch theme-swatch-${t.id}" aria-hidden="true">
                <span class="sw-accent"></span><span class="sw-ink"></span><span class="sw-ink short"></span>
              </span>
              <span class="theme-name">${t.label}</span>
              ${t.id === this.current ? html`<span class="theme-check">${icons.check()}</span>` : ''}
            </button>`,
          )}
        </div>
      </div>`;
  }
}

customElements.define('cost-theme-picker', CostThemePicker);

declare global {
  interface HTMLElementTagNameMap {
    'cost-theme-picker': CostThemePicker;
  }
}
