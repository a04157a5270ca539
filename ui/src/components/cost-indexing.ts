import { LitElement, css, html, nothing } from 'lit';
import type { IndexingState } from '../../../src/shared/api-types.ts';
import { formatBytes, formatInt } from '../format.ts';
import { indexingPhase, indexingRatio } from '../indexing.ts';
import { base, spinners } from './shared-styles.ts';

/**
 * A small "Indexing 42%" pill while transcripts are read (any response with `indexing.done === false`), "Checking…"
 * while the start-up scan has not yet found what to read.
 */
export class CostIndexing extends LitElement {
  static override properties = { state: { attribute: false } };

  declare state: IndexingState | null;

  constructor() {
    super();
    this.state = null;
  }

  static override styles = [
    base,
    spinners,
    css`
      .indexing {
        display: inline-flex;
        align-items: center;
        gap: var(--space-2);
        height: 28px;
        padding: 0 10px;
        border: 1px solid var(--border);
        border-radius: 999px;
        background: var(--bg-elevated);
        color: var(--ink-2);
        font-size: var(--fs-sm);
        font-variant-numeric: tabular-nums;
      }
    `,
  ];

  protected override render() {
    const s = this.state;
    if (!s) return nothing;
    const phase = indexingPhase(s);
    if (phase === 'done') return nothing;
    if (phase === 'checking') {
      return html`<span class="indexing" role="status" title="Comparing the transcripts with the index; figures are those last indexed.">
        <span class="spinner" aria-hidden="true"></span>
        <span>Checking…</span>
      </span>`;
    }
    const pct = Math.max(0, Math.min(99, Math.floor(indexingRatio(s) * 100)));
    const detail = `${formatInt(s.filesDone)} of ${formatInt(s.filesTotal)} files, ${formatBytes(s.bytesDone)} of ${formatBytes(s.bytesTotal)}`;
    return html`<span class="indexing" role="status" title=${`Building the index: ${detail}. Totals grow as it goes.`}>
      <span class="spinner" aria-hidden="true"></span>
      <span>Indexing ${pct}%</span>
      <span class="visually-hidden">${detail}</span>
    </span>`;
  }
}

customElements.define('cost-indexing', CostIndexing);

declare global {
  interface HTMLElementTagNameMap {
    'cost-indexing': CostIndexing;
  }
}
