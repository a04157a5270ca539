import { css, html, nothing } from 'lit';
import type { Retention } from '../../../src/shared/retention-types.ts';
import { api } from '../api.ts';
import { formatCount, formatDateTime, formatUsd } from '../format.ts';
import { ViewData } from './view-kit.ts';
import { ScopedView } from './data-view.ts';

/**
 * The overview's note before a sweep (issue 34): the sessions Claude Code deletes at its next start (and within 7
 * days), that their costs stay here, and, while the dashboard does not keep the transcripts, the offer to keep them.
 * Nothing when nothing is due or the server has no /api/retention.
 */
export class CostRetentionNote extends ScopedView {
  static override properties = { _kept: { state: true }, _error: { state: true }, _busy: { state: true } };
  /** The answer of the offer (keeping on): its `kept` stands until a load brings one. */
  private declare _kept: Retention | null;
  private declare _error: string | null;
  private declare _busy: boolean;

  constructor() {
    super();
    this._kept = null;
    this._error = null;
    this._busy = false;
  }

  private _data = new ViewData(this, {
    args: () => [] as const,
    refreshKey: () => this.refreshKey,
    load: (_args, signal) => api.get<Retention>('/api/retention', {}, signal, { quiet: true }),
  });

  /** The offer: the server keeps every transcript from now on, and at every later start. */
  private async _keep(): Promise<void> {
    this._busy = true;
    this._error = null;
    try {
      this._kept = await api.send<Retention>('POST', '/api/retention/keep');
      // A cached answer from before would offer it again.
      api.invalidate();
    } catch (err) {
      this._error = err instanceof Error ? err.message : String(err);
    } finally {
      this._busy = false;
    }
  }

  override render() {
    const loaded = this._data.loaded?.data;
    if (!loaded) return nothing;
    const r = loaded.kept === null && this._kept ? { ...loaded, kept: this._kept.kept } : loaded;
    const sum = (pick: (d: Retention['dirs'][number]) => { sessions: number; cost: number }) =>
      r.dirs.reduce((a, d) => ({ sessions: a.sessions + pick(d).sessions, cost: a.cost + pick(d).cost }), { sessions: 0, cost: 0 });
    const due = sum((d) => d.dueForCleanup);
    const soon = sum((d) => d.dueWithin7Days);
    const only = sum((d) => d.onlyInIndex);
    const errors = r.dirs.flatMap((d) => (d.settingsError ? [d.settingsError] : []));
    if (!due.sessions && !soon.sessions && !errors.length) return nothing;
    const periods = [...new Set(r.dirs.map((d) => d.cleanupPeriodDays))].join(' / ');
    return html`<section class="note" role="note" aria-label="Claude Code's cleanup">
      ${due.sessions
        ? html`<p class="due"><b>${formatCount(due.sessions, 'session')} (${formatUsd(due.cost)})</b> will be deleted by Claude Code at its next start: their costs stay here.</p>`
        : nothing}
      ${soon.sessions
        ? html`<p class="soon">${due.sessions ? 'Then ' : ''}${formatCount(soon.sessions, 'session')} (${formatUsd(soon.cost)}) within 7 days.</p>`
        : nothing}
      <p class="detail">Claude Code deletes transcripts older than ${periods} days (cleanupPeriodDays).
        ${only.sessions ? html`${formatCount(only.sessions, 'session')} (${formatUsd(only.cost)}) already exist only in this index.` : nothing}
        ${r.backup ? html`Last backup: ${formatDateTime(r.backup.lastAt)}.` : html`The index has no backup yet (<code>cost-dashboard backup &lt;file&gt;</code>).`}</p>
      ${errors.map((e) => html`<p class="error">${e}</p>`)}
      ${r.kept
        ? html`<p class="kept">Transcripts are kept in ${r.kept.dir}.</p>`
        : html`<p class="offer">Keep the transcripts too (titles, prompts, the evidence), in a folder beside the index that
            nothing deletes: <button type="button" class="keep" ?disabled=${this._busy} @click=${() => void this._keep()}>Keep transcripts</button>
            (or start the dashboard with <code>--keep-transcripts</code>).</p>
            ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : nothing}`}
    </section>`;
  }

  static override styles = css`
    :host { display: block; }
    .note { font-size: 13px; color: var(--ink-1); border: 1px solid var(--warning, #d29922); border-radius: 8px; padding: 8px 12px;
      margin-bottom: 14px; background: var(--bg-elevated); display: grid; gap: 4px; }
    p { margin: 0; }
    .detail, .kept, .offer { color: var(--ink-2); }
    .error { color: var(--warning, #d29922); }
    code { font-size: 12px; }
    button { font: inherit; font-size: 12px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--border); border-radius: 6px;
      padding: 2px 8px; cursor: pointer; margin-left: 4px; }
    button:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
  `;
}

customElements.define('cost-retention-note', CostRetentionNote);

declare global {
  interface HTMLElementTagNameMap {
    'cost-retention-note': CostRetentionNote;
  }
}
