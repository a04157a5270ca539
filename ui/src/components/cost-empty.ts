import { LitElement, css, html, nothing } from 'lit';

/** An empty state that says why there is nothing and what to do; extra actions go in the slot. */
export class CostEmpty extends LitElement {
  static override properties = {
    heading: {},
    message: {},
  };

  declare heading: string;
  declare message: string;

  constructor() {
    super();
    this.heading = '';
    this.message = '';
  }

  override render() {
    return html`<div class="box" role="status">
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path d="M4 19V5m0 14h16M8 15v-3m4 3V9m4 6v-5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>
      <div class="heading">${this.heading}</div>
      ${this.message ? html`<div class="message">${this.message}</div>` : nothing}
      <slot></slot>
    </div>`;
  }

  static override styles = css`
    :host { display: block; }
    .box { display: flex; flex-direction: column; align-items: center; gap: 8px; text-align: center; padding: 40px 16px;
      border: 1px dashed var(--border); border-radius: 10px; color: var(--ink-3); }
    .heading { font-size: 16px; font-weight: 600; color: var(--ink-1); }
    .message { font-size: 13px; color: var(--ink-3); max-width: 60ch; overflow-wrap: anywhere; }
  `;
}

customElements.define('cost-empty', CostEmpty);

declare global {
  interface HTMLElementTagNameMap {
    'cost-empty': CostEmpty;
  }
}
