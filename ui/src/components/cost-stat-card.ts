import { LitElement, css, html, nothing } from 'lit';

/**
 * One big figure with a label, an optional second line and an explanation on hover.
 * `tone` colours the figure (ok / warn / critical) for pace indicators.
 */
export class CostStatCard extends LitElement {
  static override properties = {
    label: {},
    value: {},
    sub: {},
    hint: {},
    tone: { reflect: true },
  };

  declare label: string;
  declare value: string;
  declare sub: string;
  /** How the number is computed; shown as the tooltip. */
  declare hint: string;
  declare tone: '' | 'ok' | 'warn' | 'critical';

  constructor() {
    super();
    this.label = '';
    this.value = '';
    this.sub = '';
    this.hint = '';
    this.tone = '';
  }

  override render() {
    return html`<div class="card" title=${this.hint || nothing} tabindex=${this.hint ? 0 : nothing} aria-label=${`${this.label}: ${this.value}${this.sub ? `, ${this.sub}` : ''}`}>
      <div class="label">${this.label}${this.hint ? html`<span class="i" aria-hidden="true">?</span>` : nothing}</div>
      <div class="value">${this.value}</div>
      ${this.sub ? html`<div class="sub">${this.sub}</div>` : nothing}
      <slot></slot>
    </div>`;
  }

  static override styles = css`
    :host { display: block; min-width: 0; }
    .card { height: 100%; box-sizing: border-box; padding: 14px 16px; background: var(--bg-elevated); border: 1px solid var(--border);
      border-radius: 10px; container-type: inline-size; }
    .card:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    .label { font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--ink-3); display: flex; gap: 6px; align-items: center; }
    .i { display: inline-grid; place-items: center; width: 13px; height: 13px; border-radius: 50%; border: 1px solid var(--border);
      font-size: 9px; color: var(--ink-3); cursor: help; }
    /* A narrow card (four in a row at 800 px) shrinks its figure so that 11 characters ('$12,345.67', '4h 59m left') fit
       whole; the ellipsis is only a last resort. */
    .value { font-size: min(28px, 14cqi); font-weight: 650; color: var(--ink-1); margin-top: 6px; font-variant-numeric: tabular-nums;
      white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    :host([tone='ok']) .value { color: var(--success, #3fb950); }
    :host([tone='warn']) .value { color: var(--warning, #d29922); }
    :host([tone='critical']) .value { color: var(--error, #f85149); }
    .sub { font-size: 12px; color: var(--ink-3); margin-top: 4px; font-variant-numeric: tabular-nums; }
  `;
}

customElements.define('cost-stat-card', CostStatCard);

declare global {
  interface HTMLElementTagNameMap {
    'cost-stat-card': CostStatCard;
  }
}
