import { LitElement, html, nothing } from 'lit';
import type { IndexingState } from '../../../src/shared/api-types.ts';
import { formatBytes, formatInt } from '../format.ts';

/** A small "Indexing 42%" pill while the first index build runs (any response with `indexing.done === false`). */
export class CostIndexing extends LitElement {
  static override properties = { state: { attribute: false } };

  declare state: IndexingState | null;

  constructor() {
    super();
    this.state = null;
  }

  protected override createRenderRoot() {
    return this;
  }

  protected override render() {
    const s = this.state;
    if (!s || s.done) return nothing;
    const ratio = s.bytesTotal > 0 ? s.bytesDone / s.bytesTotal : s.filesTotal > 0 ? s.filesDone / s.filesTotal : 0;
    const pct = Math.max(0, Math.min(99, Math.floor(ratio * 100)));
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
