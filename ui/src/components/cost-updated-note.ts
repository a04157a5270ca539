import { LitElement, css, html, nothing } from 'lit';
import { base } from './shared-styles.ts';

const TICK_MS = 1000;

/** "Updated 12 s ago": how old the newest figures on the page are, and whether they follow the index live. */
export function updatedText(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 2) return 'Updated just now';
  if (s < 60) return `Updated ${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `Updated ${m} min ago`;
  return `Updated ${Math.floor(m / 60)} h ago`;
}

export class CostUpdatedNote extends LitElement {
  static override properties = { at: { attribute: false }, live: { type: Boolean } };

  declare at: number | null;
  declare live: boolean;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor() {
    super();
    this.at = null;
    this.live = false;
  }

  static override styles = [
    base,
    css`
      .note {
        color: var(--ink-3);
        font-size: var(--fs-sm);
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      .dot {
        display: inline-block;
        width: 6px;
        height: 6px;
        margin-right: 6px;
        border-radius: 50%;
        background: var(--ink-3);
        vertical-align: middle;
      }
      .live .dot {
        background: var(--success);
      }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => this.requestUpdate(), TICK_MS);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  protected override render() {
    if (this.at === null) return nothing;
    const title = this.live ? 'Live: the figures refresh within a second of a change to the transcripts' : 'Refreshed every 30 s';
    return html`<span class="note ${this.live ? 'live' : ''}" role="status" aria-live="off" title=${title}
      ><span class="dot" aria-hidden="true"></span>${updatedText(this.at, Date.now())}</span
    >`;
  }
}

customElements.define('cost-updated-note', CostUpdatedNote);

declare global {
  interface HTMLElementTagNameMap {
    'cost-updated-note': CostUpdatedNote;
  }
}
