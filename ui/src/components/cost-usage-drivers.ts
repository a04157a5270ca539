import { LitElement, css, html, nothing } from 'lit';
import type { UsageDrivers, UsageDriversWindow, UsageShare } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { formatCount, formatRelative } from '../format.ts';
import { viewStyles } from './view-kit.ts';

type Period = 'day' | 'week';
type DriversState =
  | { state: 'idle' }
  | { state: 'loading'; since: number; previous: UsageDrivers | null }
  | { state: 'ok'; data: UsageDrivers }
  | { state: 'error'; message: string; previous: UsageDrivers | null };

/**
 * The analysis lives outside the element: it takes the CLI a week's scan, so leaving Insights and coming back
 * shows the scan still running, or its result, instead of starting over. Memory only, like every API answer.
 */
const store = {
  current: { state: 'idle' } as DriversState,
  listeners: new Set<() => void>(),
  set(next: DriversState): void {
    this.current = next;
    for (const l of this.listeners) l();
  },
  async load(refresh: boolean): Promise<void> {
    if (this.current.state === 'loading') return;
    const previous = this.current.state === 'ok' ? this.current.data : this.current.state === 'error' ? this.current.previous : null;
    this.set({ state: 'loading', since: Date.now(), previous });
    try {
      const data = await api.get<UsageDrivers>('/api/usage-drivers', refresh ? { refresh: '1' } : {}, undefined, { force: true });
      this.set({ state: 'ok', data });
    } catch (err) {
      this.set({ state: 'error', message: (err as Error).message, previous });
    }
  },
};

const SOURCES: [keyof Pick<UsageDriversWindow, 'agents' | 'skills' | 'plugins' | 'mcpServers'>, string][] = [
  ['agents', 'Subagents'],
  ['skills', 'Skills'],
  ['plugins', 'Plugins'],
  ['mcpServers', 'MCP servers'],
];

/**
 * "What drives usage" in Insights: Claude Code's own analysis of the last 24 hours and 7 days of transcripts on this
 * machine (GET /api/usage-drivers: behaviors such as cache misses or long context with their shares, and the CLI's
 * worded recommendations). Opt-in: nothing runs until the user asks, since the CLI reads a week of history; the
 * panel shows the scan's progress (elapsed time) apart from the view's own loading.
 */
export class CostUsageDrivers extends LitElement {
  static override properties = { _period: { state: true }, _tick: { state: true } };

  private declare _period: Period;
  private declare _tick: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly onStore = () => this.sync();

  constructor() {
    super();
    this._period = 'week';
    this._tick = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    store.listeners.add(this.onStore);
    this.sync();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    store.listeners.delete(this.onStore);
    this.stopTimer();
  }

  /** Re-render on every store change; while a scan runs, once a second for the elapsed time. */
  private sync(): void {
    this.requestUpdate();
    if (store.current.state === 'loading') this.timer ??= setInterval(() => (this._tick = Date.now()), 1000);
    else this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  override render() {
    const s = store.current;
    const busy = s.state === 'loading';
    const shown = s.state === 'ok' ? s.data : s.state === 'idle' ? null : s.previous;
    return html`<section class="panel" data-panel="usage-drivers" aria-busy=${busy ? 'true' : 'false'}>
      <div class="bh">
        <h3>What drives your usage <span class="muted">· Claude Code's analysis of this machine's transcripts</span></h3>
        ${s.state === 'idle'
          ? nothing
          : html`<button data-action="refresh-drivers" ?disabled=${busy} @click=${() => void store.load(true)}>Analyse again</button>`}
      </div>
      ${s.state === 'idle'
        ? html`<p class="muted">
              Which habits weigh most on your plan limits over the last 24 hours and 7 days (cache misses, long context,
              subagent-heavy or parallel sessions, max effort…), with Claude Code's own recommendations. It reads a week of
              transcripts, so it runs only when you ask.
            </p>
            <button class="primary" data-action="analyse-drivers" @click=${() => void store.load(false)}>Analyse my usage</button>`
        : nothing}
      ${busy
        ? html`<div class="progress" role="status">
            <span class="dot" aria-hidden="true"></span>
            <span>Claude Code is scanning the last 7 days of transcripts… <span data-elapsed>${Math.floor((Date.now() - s.since) / 1000)} s</span></span>
          </div>`
        : nothing}
      ${s.state === 'error' ? html`<p class="error" role="alert">${s.message}</p>` : nothing}
      ${shown ? this.result(shown, busy) : nothing}
    </section>`;
  }

  private result(d: UsageDrivers, stale: boolean) {
    if (!d.available) return html`<p class="na" role="note">${d.note}</p>`;
    const w = this._period === 'day' ? d.day : d.week;
    return html`<div class=${stale ? 'stale' : ''}>
      <div class="periods" role="group" aria-label="Period">
        ${(['day', 'week'] as const).map(
          (p) => html`<button aria-pressed=${this._period === p ? 'true' : 'false'} data-period=${p} @click=${() => (this._period = p)}>
            ${p === 'day' ? 'Last 24 hours' : 'Last 7 days'}
          </button>`,
        )}
      </div>
      ${w ? this.window(w) : html`<p class="muted">No analysis for this period.</p>`}
      <p class="foot">
        Approximate · sessions on this machine only · shares overlap, so they do not add up to 100%. Checked
        ${formatRelative(d.fetchedAt)}${d.cached ? ' (kept by the server up to 15 min)' : ''}.
      </p>
    </div>`;
  }

  private window(w: UsageDriversWindow) {
    const sources = SOURCES.filter(([k]) => w[k].length > 0);
    return html`<p class="summary">${formatCount(w.requests, 'request')} in ${formatCount(w.sessions, 'session')}</p>
      ${w.behaviors.length
        ? html`<ul class="behaviors">
            ${w.behaviors.map(
              (b) => html`<li data-behavior=${b.key}>
                <span class="label">${b.label}</span>
                <span class="meter" role="meter" aria-label=${`${b.label}: share of usage`} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${Math.round(b.percent)}>
                  <span style=${`width:${b.percent}%`}></span>
                </span>
                <span class="pct">${Math.round(b.percent)}%</span>
                <span class="muted count">${formatCount(b.count, 'request')}</span>
              </li>`,
            )}
          </ul>`
        : html`<p class="muted">No behavior stood out.</p>`}
      ${w.recommendations.length
        ? html`<h4>What to do</h4>
            <ol class="recs">
              ${w.recommendations.map(
                (r) => html`<li><b>${r.title}</b>${r.detail ? html` <span class="muted">· ${r.detail}</span>` : nothing}
                  <span class="muted">(${Math.round(r.percent)}% of usage)</span></li>`,
              )}
            </ol>`
        : nothing}
      ${sources.map(([k, label]) => html`<p class="sources"><span class="muted">${label}:</span> ${this.shares(w[k])}</p>`)}`;
  }

  private shares(list: UsageShare[]) {
    return list.map((s) => `${s.name} ${Math.round(s.percent)}%`).join(' · ');
  }

  static override styles = [
    viewStyles,
    css`
      .panel { margin-top: 16px; }
      .bh { display: flex; align-items: center; gap: 10px; margin-bottom: 10px; }
      .bh h3 { flex: 1; margin: 0; }
      .muted { color: var(--ink-3); font-weight: 400; }
      p { margin: 0 0 10px; font-size: 13px; color: var(--ink-2); }
      button.primary { color: var(--ink-accent); border-color: var(--accent-dim); }
      button[disabled] { opacity: 0.5; cursor: default; }
      .progress { display: flex; align-items: center; gap: 10px; font-size: 13px; color: var(--ink-2); margin-bottom: 10px; }
      .dot { width: 10px; height: 10px; border-radius: 50%; background: var(--accent); animation: pulse 1s ease-in-out infinite alternate; }
      @keyframes pulse { from { opacity: 0.3; } to { opacity: 1; } }
      @media (prefers-reduced-motion: reduce) { .dot { animation: none; } }
      .error { color: var(--error); }
      .na { padding: 10px 12px; border: 1px solid var(--border); border-radius: 8px; }
      .stale { opacity: 0.55; }
      .periods { display: flex; gap: 6px; margin-bottom: 10px; }
      .periods button[aria-pressed='true'] { color: var(--ink-1); border-color: var(--accent); }
      .summary { color: var(--ink-1); }
      ul.behaviors { list-style: none; margin: 0 0 12px; padding: 0; display: grid; gap: 6px; }
      ul.behaviors li { display: grid; grid-template-columns: minmax(140px, 220px) minmax(80px, 1fr) 3.5em minmax(90px, auto); gap: 10px; align-items: center; font-size: 13px; }
      .meter { height: 8px; border-radius: 4px; background: var(--bg-elevated); overflow: hidden; }
      .meter span { display: block; height: 100%; background: var(--accent); }
      .pct { text-align: right; font-variant-numeric: tabular-nums; }
      h4 { margin: 12px 0 6px; font-size: 13px; font-weight: 600; color: var(--ink-2); }
      ol.recs { margin: 0 0 12px; padding-left: 20px; font-size: 13px; display: grid; gap: 4px; }
      .sources { margin-bottom: 4px; }
      .foot { margin: 10px 0 0; font-size: 12px; color: var(--ink-3); }
    `,
  ];
}

customElements.define('cost-usage-drivers', CostUsageDrivers);

declare global {
  interface HTMLElementTagNameMap {
    'cost-usage-drivers': CostUsageDrivers;
  }
}
