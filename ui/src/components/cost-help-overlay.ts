import { LitElement, css, html } from 'lit';
import type { HubKeyRow } from '../hub-bridge.ts';
import { SHORTCUTS } from '../keys.ts';
import { icons } from './icons.ts';
import { adoptDocumentStyles, base, buttons, dialog } from './shared-styles.ts';

const styles = css`
  .shortcuts {
    margin: 0;
    padding: var(--space-3) var(--space-5) var(--space-5);
    display: grid;
    gap: 2px;
  }

  .shortcut {
    display: grid;
    grid-template-columns: 170px 1fr;
    align-items: center;
    gap: var(--space-4);
    padding: 6px 0;
    border-bottom: 1px solid var(--line);
  }

  .shortcut:last-child {
    border-bottom: 0;
  }

  /* A long combination ('PageUp / PageDown / Home / End') wraps inside its column; a key cap never shrinks. */
  .shortcut dt {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px;
  }

  .shortcut dd {
    margin: 0;
    color: var(--ink-2);
  }

  kbd {
    flex: none;
    display: inline-grid;
    place-items: center;
    min-width: 24px;
    height: 24px;
    padding: 0 6px;
    border: 1px solid var(--border);
    border-bottom-width: 2px;
    border-radius: 5px;
    background: var(--bg-surface);
    color: var(--ink-1);
    font: 600 var(--fs-sm) / 1 var(--font-mono);
  }

  .kbd-sep {
    color: var(--ink-3);
    font-size: var(--fs-sm);
  }
`;
adoptDocumentStyles(base, buttons, dialog, styles);

/**
 * Modal list of the keyboard shortcuts (`?`). A native <dialog>: focus is trapped and Escape closes it. Light DOM: an
 * open dialog owns the keyboard, and the shell's keys find it with a document query (controllers/keys.ts).
 */
export class CostHelpOverlay extends LitElement {
  static override properties = { hubKeys: { attribute: false } };

  /** Under a hub: the hub's own keys, as the hub labels them, listed after the app's. */
  declare hubKeys: HubKeyRow[];

  constructor() {
    super();
    this.hubKeys = [];
  }

  protected override createRenderRoot() {
    return this;
  }

  get isOpen(): boolean {
    return this.querySelector('dialog')?.open ?? false;
  }

  open(): void {
    const d = this.querySelector('dialog');
    if (d && !d.open) d.showModal();
  }

  close(): void {
    this.querySelector('dialog')?.close();
  }

  protected override render() {
    return html`<dialog class="dialog help-dialog" aria-labelledby="help-title" @click=${this.onBackdrop}>
      <div class="dialog-head">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <button class="icon-btn ghost" type="button" aria-label="Close" @click=${this.close}>${icons.close()}</button>
      </div>
      <dl class="shortcuts">
        ${SHORTCUTS.map(
          (s) => html`<div class="shortcut">
            <dt>
              ${s.keys.map((combo, i) => html`${i ? html`<span class="kbd-sep">/</span>` : ''}${keysOf(combo.split('+'))}`)}
            </dt>
            <dd>${s.label}</dd>
          </div>`,
        )}
        ${this.hubKeys.map(
          (s) => html`<div class="shortcut hub-key">
            <dt>${keysOf(s.keys)}</dt>
            <dd>${s.label}</dd>
          </div>`,
        )}
      </dl>
    </dialog>`;
  }

  /** A click on the backdrop (the dialog box itself, outside its content) closes it. */
  private onBackdrop(e: MouseEvent): void {
    if (e.target === e.currentTarget) this.close();
  }
}

/** One combo: its keys as <kbd>, joined by '+'. */
function keysOf(keys: string[]) {
  return keys.map((k, j) => html`${j ? html`<span class="kbd-sep">+</span>` : ''}<kbd>${k}</kbd>`);
}

customElements.define('cost-help-overlay', CostHelpOverlay);

declare global {
  interface HTMLElementTagNameMap {
    'cost-help-overlay': CostHelpOverlay;
  }
}
