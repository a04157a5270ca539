import { LitElement, html } from 'lit';
import type { HubKeyRow } from '../hub-bridge.ts';
import { SHORTCUTS } from '../keys.ts';
import { icons } from './icons.ts';

/** Modal list of the keyboard shortcuts (`?`). A native <dialog>: focus is trapped and Escape closes it. */
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
