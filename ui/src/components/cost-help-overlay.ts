import { LitElement, html } from 'lit';
import { SHORTCUTS } from '../keys.ts';
import { icons } from './icons.ts';

/** Modal list of the keyboard shortcuts (`?`). A native <dialog>: focus is trapped and Escape closes it. */
export class CostHelpOverlay extends LitElement {
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
              ${s.keys.map(
                (combo, i) => html`${i ? html`<span class="kbd-sep">/</span>` : ''}${combo
                  .split('+')
                  .map((k, j) => html`${j ? html`<span class="kbd-sep">+</span>` : ''}<kbd>${k}</kbd>`)}`,
              )}
            </dt>
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

customElements.define('cost-help-overlay', CostHelpOverlay);

declare global {
  interface HTMLElementTagNameMap {
    'cost-help-overlay': CostHelpOverlay;
  }
}
