import { LitElement, css, html, nothing } from 'lit';
import type { UsageLimits, UsageWindow } from '../../../src/shared/api-types.ts';
import { api, isAbort } from '../api.ts';
import { formatDateTime, formatDuration, formatMoney, formatRelative } from '../format.ts';
import { icons } from './icons.ts';
import { adoptDocumentStyles, base, buttons, spinners, dialog } from './shared-styles.ts';

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'ok'; data: UsageLimits } | { state: 'error'; message: string };

const styles = css`
  .muted {
    color: var(--ink-3);
  }

  .usage-loading {
    display: flex;
    align-items: center;
    gap: var(--space-3);
    padding: var(--space-4) 0;
    color: var(--ink-2);
  }

  .usage-error {
    padding: var(--space-3) var(--space-4);
    border: 1px solid color-mix(in srgb, var(--error) 50%, transparent);
    border-radius: var(--radius);
    background: var(--bg-surface);
  }

  .usage-error-title {
    display: flex;
    align-items: center;
    gap: var(--space-2);
    color: var(--error);
    font-weight: 650;
  }

  .usage-error-text {
    margin: var(--space-2) 0 0;
    white-space: pre-wrap;
    word-break: break-word;
    font: 400 var(--fs-sm) / 1.5 var(--font-mono);
    color: var(--ink-1);
  }

  .usage-note {
    margin: 0;
    color: var(--ink-2);
  }

  .usage-na {
    padding: var(--space-3) var(--space-4);
    border: 1px solid var(--line);
    border-radius: var(--radius);
    background: var(--bg-surface);
  }

  .usage-plan {
    margin: 0 0 var(--space-3);
    color: var(--ink-2);
  }

  .usage-plan strong {
    color: var(--ink-1);
    text-transform: capitalize;
  }

  .usage-windows {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--space-3);
  }

  .usage-window,
  .usage-spend {
    padding: var(--space-3) var(--space-4);
    border: 1px solid var(--line);
    border-radius: var(--radius);
    background: var(--bg-surface);
  }

  .usage-spend {
    margin-top: var(--space-3);
  }

  .usage-window.binding {
    border-color: var(--accent);
  }

  .usage-row {
    display: flex;
    align-items: center;
    gap: var(--space-2);
    margin-bottom: var(--space-2);
  }

  .usage-label {
    font-weight: 600;
  }

  .usage-pct {
    margin-left: auto;
    font-weight: 650;
    font-variant-numeric: tabular-nums;
  }

  .badge {
    display: inline-flex;
    align-items: center;
    height: 20px;
    padding: 0 8px;
    border: 1px solid var(--accent);
    border-radius: 999px;
    background: var(--selected-bg);
    color: var(--ink-1);
    font-size: var(--fs-xs);
    font-weight: 600;
  }

  .meter {
    display: block;
    height: 8px;
    border-radius: 999px;
    background: var(--bg-hover);
    overflow: hidden;
  }

  .meter-fill {
    display: block;
    height: 100%;
    border-radius: inherit;
    background: var(--success);
    transition: width 0.3s;
  }

  .sev-warn .meter-fill {
    background: var(--warning);
  }

  .sev-critical .meter-fill {
    background: var(--error);
  }

  .sev-critical .usage-pct {
    color: var(--error);
  }

  .usage-reset {
    margin-top: var(--space-2);
    font-size: var(--fs-sm);
    color: var(--ink-3);
  }

  .usage-foot {
    margin: var(--space-4) 0 0;
    font-size: var(--fs-sm);
    color: var(--ink-3);
  }
`;
adoptDocumentStyles(base, buttons, spinners, dialog, styles);

/**
 * The Plan usage dialog (Ctrl+Shift+S): the plan's rate-limit windows from GET /api/usage-limits, with percent meters,
 * reset times, the binding window marked, and extra-usage spend in its currency. Refresh asks the server to probe
 * again (refresh=1). A login that plan limits do not apply to (an API key, a cloud provider) shows the server's note
 * instead of meters. A failed probe (503) shows the server's message as it is. Light DOM: an open dialog owns the
 * keyboard, and the shell's keys find it with a document query (controllers/keys.ts).
 */
export class CostUsageDialog extends LitElement {
  static override properties = { _load: { state: true }, _refreshing: { state: true } };

  private declare _load: Load;
  private declare _refreshing: boolean;
  private abort: AbortController | null = null;

  constructor() {
    super();
    this._load = { state: 'idle' };
    this._refreshing = false;
  }

  protected override createRenderRoot() {
    return this;
  }

  get isOpen(): boolean {
    return this.querySelector('dialog')?.open ?? false;
  }

  open(): void {
    const d = this.querySelector('dialog');
    if (!d) return;
    if (!d.open) d.showModal();
    // The server keeps a probe result 5 minutes, so asking it on every open is cheap and never stale past that.
    void this.fetch(false);
  }

  close(): void {
    this.querySelector('dialog')?.close();
  }

  private onClose(): void {
    this.abort?.abort();
    this.abort = null;
    this._refreshing = false;
  }

  private async fetch(refresh: boolean): Promise<void> {
    this.abort?.abort();
    const ctrl = new AbortController();
    this.abort = ctrl;
    if (refresh && this._load.state === 'ok') this._refreshing = true;
    else this._load = { state: 'loading' };
    try {
      const data = await api.get<UsageLimits>('/api/usage-limits', refresh ? { refresh: '1' } : {}, ctrl.signal, { force: true });
      this._load = { state: 'ok', data };
    } catch (err) {
      if (isAbort(err)) return;
      this._load = { state: 'error', message: (err as Error).message };
    } finally {
      if (this.abort === ctrl) {
        this.abort = null;
        this._refreshing = false;
      }
    }
  }

  protected override render() {
    const busy = this._load.state === 'loading' || this._refreshing;
    return html`<dialog
      class="dialog usage-dialog"
      aria-labelledby="usage-title"
      aria-busy=${busy ? 'true' : 'false'}
      @close=${this.onClose}
      @click=${this.onBackdrop}
    >
      <div class="dialog-head">
        <h2 id="usage-title">Plan usage</h2>
        <div class="dialog-head-actions">
          <button class="btn" type="button" ?disabled=${busy} @click=${() => this.fetch(true)} data-action="refresh-usage">
            <span class=${busy ? 'spin' : ''}>${icons.refresh()}</span><span>Refresh</span>
          </button>
          <button class="icon-btn ghost" type="button" aria-label="Close" @click=${this.close}>${icons.close()}</button>
        </div>
      </div>
      <div class="dialog-body">${this.body()}</div>
    </dialog>`;
  }

  private body() {
    const l = this._load;
    if (l.state === 'idle') return nothing;
    if (l.state === 'loading')
      return html`<div class="usage-loading" role="status">
        <span class="spinner" aria-hidden="true"></span>
        <span>Asking Claude Code for your plan usage… this starts the CLI and can take a few seconds.</span>
      </div>`;
    if (l.state === 'error')
      return html`<div class="usage-error" role="alert">
        <div class="usage-error-title">${icons.alert()}<span>Plan usage is not available</span></div>
        <pre class="usage-error-text">${l.message}</pre>
      </div>`;
    const d = l.data;
    return html`${d.subscription ? html`<p class="usage-plan">Plan: <strong>${d.subscription}</strong></p>` : nothing}
      ${d.windows.length
        ? html`<ul class="usage-windows">
            ${d.windows.map((w) => this.window(w))}
          </ul>`
        : nothing}
      ${d.note ? html`<p class=${d.limitsApply ? 'usage-note' : 'usage-note usage-na'} role="note">${d.note}</p>` : nothing}
      ${d.spend ? this.spend(d.spend) : nothing}
      <p class="usage-foot">
        Checked ${formatRelative(d.fetchedAt)}${d.cached ? ' (cached by the server, up to 5 min)' : ''}.
      </p>`;
  }

  private window(w: UsageWindow) {
    const pct = Math.max(0, Math.min(100, w.percent));
    const resets = w.resetsAt ? new Date(w.resetsAt) : null;
    return html`<li class="usage-window sev-${w.severity} ${w.binding ? 'binding' : ''}">
      <div class="usage-row">
        <span class="usage-label">${w.label}</span>
        ${w.binding ? html`<span class="badge" title="The window that limits you first">Limits you first</span>` : nothing}
        <span class="usage-pct">${Math.round(pct)}%</span>
      </div>
      <div class="meter" role="meter" aria-label=${`${w.label} used`} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${Math.round(pct)}>
        <span class="meter-fill" style=${`width:${pct}%`}></span>
      </div>
      <div class="usage-reset">
        ${resets
          ? html`Resets in ${formatDuration(resets.getTime() - Date.now())} · ${formatDateTime(resets)}`
          : 'No reset time reported'}
      </div>
    </li>`;
  }

  private spend(s: NonNullable<UsageLimits['spend']>) {
    const money = (n: number) => formatMoney(n, s.currency);
    const pct = s.percent;
    return html`<div class="usage-spend">
      <div class="usage-row">
        <span class="usage-label">Extra usage spend</span>
        <span class="usage-pct">${money(s.used)}${s.limit !== null ? html` <span class="muted">of ${money(s.limit)}</span>` : nothing}</span>
      </div>
      ${pct !== null
        ? html`<div class="meter" role="meter" aria-label="Extra usage spend" aria-valuemin="0" aria-valuemax="100" aria-valuenow=${Math.round(pct)}>
            <span class="meter-fill" style=${`width:${pct}%`}></span>
          </div>`
        : nothing}
    </div>`;
  }

  private onBackdrop(e: MouseEvent): void {
    if (e.target === e.currentTarget) this.close();
  }
}

customElements.define('cost-usage-dialog', CostUsageDialog);

declare global {
  interface HTMLElementTagNameMap {
    'cost-usage-dialog': CostUsageDialog;
  }
}
