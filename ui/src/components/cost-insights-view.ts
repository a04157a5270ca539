import { css, html, nothing } from 'lit';
import type { Block, Insights } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { dayKey, parseDayKey } from '../../../src/calendar/days.ts';
import { rangeParams, scopeParams } from '../state.ts';
import { formatCount, formatDateTime, formatDayRange, formatDuration, formatInt, formatPercent, formatTime, formatTokens, formatUsd, shortModel } from '../format.ts';
import { seriesVar } from '../chart-colors.ts';
import { exportName } from '../export.ts';
import type { Column } from './cost-table.ts';
import { DataView } from './data-view.ts';
import { ViewData, anyIndexed, emit, exportJsonButton, indexingEmpty, rangeText, viewBody, viewStyles } from './view-kit.ts';
import { windowName } from '../limits.ts';
import './cost-table.ts';
import './cost-chart-series.ts';
import './cost-chart-bars.ts';
import './cost-heatmap.ts';
import './cost-stat-card.ts';
import './cost-empty.ts';
import './cost-usage-drivers.ts';
import './cost-limits-section.ts';
import './cost-cause-tables.ts';

type Pace = 'ok' | 'warn' | 'critical';

interface Loaded {
  data: Insights;
  /** False when the whole index is empty (not only this range). */
  anyData: boolean;
}

/** The mark of a block that a plan limit hit stopped (the transcripts' hit inside it), else nothing. */
function hitTag(b: Block) {
  const h = b.limitHit;
  if (!h) return nothing;
  const what = h.window === null ? 'Limit hit' : `${windowName(h.window)} limit hit`;
  const title = `${what} at ${formatDateTime(h.at)}${h.resetsAt ? `, resets ${formatDateTime(h.resetsAt)}` : ''}`;
  return html` <span class="tag hit" data-hit=${h.window ?? 'unknown'} title=${title}>${what}</span>`;
}

/** No usage in the range: no block, no token and no tool. */
const isEmpty = (d: Insights): boolean => !d.blocks.length && d.tokenComposition.totalTokens === 0 && !d.topTools.length;

/** A block's two dearest models with what they cost (the rest in a "+N" tag); every one of them in the tooltip. */
function blockModels(b: Block) {
  const more = b.modelCosts.length - 2;
  return html`<span class="models" title=${b.modelCosts.map((m) => `${m.model}: ${formatUsd(m.cost)}`).join('\n')}>${b.modelCosts.slice(0, 2).map((m) => `${shortModel(m.model)} ${formatUsd(m.cost)}`).join(', ')}${more > 0 ? html` <span class="tag">+${more}</span>` : nothing}</span>`;
}

/** The Sunday ending the week that starts on `key` (a weekStart of the server's). */
const weekEnd = (key: string): string => dayKey((parseDayKey(key) ?? Number.NaN) + 6);

/**
 * The active block's projection against the finished blocks of the last 30 days (the server's yardstick, the same on
 * every range): above their average is 'warn', above the most expensive one is 'critical'.
 */
export function blockPace(projected: number, y: Insights['blockYardstick']): { tone: Pace | ''; text: string } {
  if (!y) return { tone: '', text: 'No finished block in the last 30 days to compare with' };
  if (projected > y.max) return { tone: 'critical', text: `Above your most expensive block of the last 30 days (${formatUsd(y.max)})` };
  if (projected > y.average) return { tone: 'warn', text: `Above your average block of the last 30 days (${formatUsd(y.average)})` };
  return { tone: 'ok', text: `Within your average block of the last 30 days (${formatUsd(y.average)})` };
}

/**
 * Where the money goes: the active 5-hour block and its pace, recent blocks, run rate, cache
 * savings, subagent share, token composition, top tools, the weekday × hour heatmap, weekly cost,
 * and (on request) the CLI's analysis of what drives plan usage.
 *
 * @fires open-usage - the plan usage dialog is asked for.
 */
export class CostInsightsView extends DataView {
  static override properties = {
    machine: { attribute: false },
    _by: { state: true },
  };

  /** The machine filter (a label), null for every machine. */
  declare machine: string | null;
  /** Token composition by token count or by cost. */
  private declare _by: 'tokens' | 'cost';

  constructor() {
    super();
    this._by = 'tokens';
    this.machine = null;
  }

  private _data = new ViewData(this, {
    args: () => [this.range, this.scope, this.machine] as const,
    refreshKey: () => this.refreshKey,
    load: async ([range, scope, machine], signal): Promise<Loaded> => {
      const data = await api.get<Insights>('/api/insights', { ...rangeParams(range), ...scopeParams(scope), ...(machine ? { machine } : {}) }, signal);
      // An empty range: ask whether anything was indexed at all, to say which empty state applies (as the overview).
      const anyData = !isEmpty(data) || (await anyIndexed(signal));
      return { data, anyData };
    },
  });

  private _blockColumns(): Column<Block>[] {
    return [
      { key: 'start', label: 'Start', value: (b) => b.start, render: (b) => html`${formatDateTime(b.start)}${b.active ? html` <span class="tag live">active</span>` : nothing}` },
      { key: 'last', label: 'Last activity', value: (b) => b.lastActivity, render: (b) => html`${formatTime(b.lastActivity)}${hitTag(b)}`, title: 'Time of the last usage entry in the block; marked when a plan limit hit stopped the block' },
      { key: 'span', label: 'Active for', numeric: true, value: (b) => Date.parse(b.lastActivity) - Date.parse(b.start), render: (b) => formatDuration(Date.parse(b.lastActivity) - Date.parse(b.start)), title: 'From the block start (first entry floored to the hour) to its last entry' },
      { key: 'cost', label: 'Cost', numeric: true, value: (b) => b.cost, render: (b) => html`<b>${formatUsd(b.cost)}</b>` },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (b) => b.totalTokens, render: (b) => formatTokens(b.totalTokens) },
      { key: 'messages', label: 'Messages', numeric: true, value: (b) => b.messages, render: (b) => formatInt(b.messages) },
      { key: 'models', label: 'Models', value: (b) => b.models.join(' '), render: blockModels, title: 'The models that ran in the block, the dearest first, with what each cost' },
    ];
  }

  /** The block of now, whatever the range (the server sends it apart from the blocks of the range). */
  private _activeBlock(d: Insights) {
    const b = d.activeBlock;
    const usage = html`<button class="usage" @click=${() => emit(this, 'open-usage')}
      title="Plan usage from the agent CLI (Ctrl+Shift+S)">Plan usage…</button>`;
    if (!b) {
      const last = d.blocks[0];
      return html`<section class="panel block">
        <div class="bh"><h3>5-hour block</h3>${usage}</div>
        <p class="muted">No active block${last ? html` — the last one ended ${formatDateTime(last.end)} at ${formatUsd(last.cost)}` : nothing}.</p>
      </section>`;
    }
    const burn = b.burn ?? d.burnRate;
    const pace = burn ? blockPace(burn.projectedCost, d.blockYardstick) : { tone: '' as const, text: '' };
    return html`<section class="panel block" data-block="active">
      <div class="bh"><h3>Active 5-hour block <span class="muted">${formatTime(b.start)}–${formatTime(b.end)}</span></h3>${usage}</div>
      <div class="cards">
        <cost-stat-card data-stat="time-left" label="Time left" value=${burn ? formatDuration(burn.minutesLeft * 60_000) : '—'} sub=${`ends ${formatTime(b.end)}`}
          hint="A block starts at its first entry floored to the hour and lasts 5 hours."></cost-stat-card>
        <cost-stat-card data-stat="block-cost" label="Block cost" value=${formatUsd(b.cost)} sub=${formatCount(b.messages, 'message')}
          hint="Cost of every entry since the block started."></cost-stat-card>
        <cost-stat-card data-stat="block-tokens" label="Block tokens" value=${formatTokens(b.totalTokens)} sub=${`in ${formatTokens(b.inputTokens)} · out ${formatTokens(b.outputTokens)}`}
          hint="All token kinds used in the block (input, output, cache write, cache read)."></cost-stat-card>
        <cost-stat-card data-stat="burn" label="Burn rate" value=${burn ? `${formatUsd(burn.costPerHour)}/h` : '—'} sub=${burn ? `${formatTokens(burn.tokensPerMinute)} tokens/min` : ''}
          hint="Block cost ÷ hours since the block started; tokens per minute the same way."></cost-stat-card>
        <cost-stat-card data-stat="projected" label="Projected block" value=${burn ? formatUsd(burn.projectedCost) : '—'} sub=${pace.text} tone=${pace.tone}
          hint="Cost of the whole 5-hour block if the current burn rate holds. Colour: green within your average finished block, amber above it, red above your most expensive one."></cost-stat-card>
      </div>
    </section>`;
  }

  /** Bars of the five token kinds, by count or by their cost at base prices (output is most of the cost). */
  private _composition(d: Insights) {
    const tc = d.tokenComposition;
    const cc = d.costComposition;
    const kinds = [
      { label: 'Cache read', tokens: tc.cacheReadTokens, cost: cc.cacheRead, what: 'read from the prompt cache' },
      { label: 'Cache write 5m', tokens: tc.cache5mTokens, cost: cc.cache5m, what: 'written to the 5-minute cache' },
      { label: 'Cache write 1h', tokens: tc.cache1hTokens, cost: cc.cache1h, what: 'written to the 1-hour cache' },
      { label: 'Input', tokens: tc.inputTokens, cost: cc.input, what: 'uncached input' },
      { label: 'Output', tokens: tc.outputTokens, cost: cc.output, what: 'output' },
    ];
    const byCost = this._by === 'cost';
    return html`<cost-chart-bars label=${byCost ? 'Token composition by cost' : 'Token composition'} .format=${byCost ? formatUsd : formatTokens} .limit=${6}
      .items=${kinds.map((k, i) => ({
        label: k.label, value: byCost ? k.cost : k.tokens, color: seriesVar(i),
        detail: `${formatInt(k.tokens)} tokens ${k.what}: ${formatUsd(k.cost)} at base prices`,
      }))}></cost-chart-bars>`;
  }

  /** Weeks the range (or today) cuts: their bars cover fewer than 7 days. */
  private _partialWeeks(d: Insights): string[] {
    return d.weeklyCost.map((w) => w.weekStart).filter((k) => k < d.range.from || weekEnd(k) > d.range.to);
  }

  private _body({ data: d, anyData }: Loaded) {
    if (isEmpty(d)) {
      if (!anyData) {
        return d.indexing.done
          ? html`<cost-empty heading="No usage indexed yet" message="No transcript has been read into the index. The Overview names the config dir the server reads."></cost-empty>`
          : indexingEmpty();
      }
      const empty = html`<cost-empty heading="Nothing in this range" message=${`No usage between ${formatDayRange(d.range.from, d.range.to)}${d.repository ? ' in this repository' : d.project ? ' in this project' : ''}. Pick a longer range.`}></cost-empty>`;
      return d.activeBlock ? html`${this._activeBlock(d)}${empty}` : empty;
    }
    const ss = d.subagentShare;
    const totalCost = ss.mainCost + ss.subagentCost;
    return html`
      ${this._activeBlock(d)}
      <div class="cards">
        ${d.runRate.days
          ? html`<cost-stat-card data-stat="run-rate" label="Monthly run rate" value=${formatUsd(d.runRate.projectedMonthly)} sub=${`${formatUsd(d.runRate.dailyAvg)}/day over ${formatCount(d.runRate.days, 'whole day')}`}
              hint="Average cost per whole day of the range that has ended (today left out) × 30."></cost-stat-card>`
          : html`<cost-stat-card data-stat="run-rate" label="Monthly run rate" value="—" sub="Cannot project yet: no whole day in this range"
              hint="The run rate averages the whole days of the range that have ended; pick a range that includes earlier days."></cost-stat-card>`}
        <cost-stat-card data-stat="cache-savings" label="Cache savings" value=${formatUsd(d.cacheSavings.saved)} sub=${`${formatTokens(d.cacheSavings.cacheReadTokens)} cache-read tokens`}
          hint="Cache-read tokens × (input price − cache-read price): what the same prompts would have cost without the cache."></cost-stat-card>
        <cost-stat-card data-stat="subagent-share" label="Subagent share" value=${formatPercent(ss.share)} sub=${`${formatUsd(ss.subagentCost)} of ${formatUsd(totalCost)}`}
          hint="Cost of subagent (Task) transcripts ÷ all cost in the range."></cost-stat-card>
      </div>
      <div class="grid">
        <section class="panel">
          <div class="bh"><h3 title="Tokens by kind across the range; cache writes split by their 5-minute and 1-hour lifetimes">Token composition</h3>
            <span class="modes" role="group" aria-label="Token composition by">
              ${(['tokens', 'cost'] as const).map((by) => html`<button data-by=${by} aria-pressed=${this._by === by} @click=${() => (this._by = by)}>${by === 'tokens' ? 'Tokens' : 'Cost'}</button>`)}
            </span></div>
          ${this._composition(d)}
        </section>
        <section class="panel">
          <h3 title="Tool calls made by the assistant in the range, by tool name">Top tools</h3>
          ${d.topTools.length
            ? html`<cost-chart-bars label="Top tools" .format=${formatInt} .limit=${10}
                .items=${d.topTools.map((t) => ({ label: t.name, value: t.count, detail: `${t.name}: ${formatInt(t.count)} calls` }))}></cost-chart-bars>`
            : html`<p class="muted">No tool calls in this range.</p>`}
        </section>
      </div>
      <cost-cause-tables view="insights" .data=${d}></cost-cause-tables>
      ${d.range.from === d.range.to
        ? nothing // one day: a weekday grid with one row and a week chart with a part of one week say nothing
        : html`<div class="grid">
            <section class="panel">
              <h3 title="Cost by local weekday and hour of day, summed over the range">When you spend</h3>
              <cost-heatmap .data=${d.heatmap}></cost-heatmap>
            </section>
            <section class="panel">
              <h3 title="Cost per week, weeks starting Monday (local time)">Weekly cost</h3>
              <cost-chart-series label="Weekly cost" bucket="day" partial-label="partial week" .partial=${this._partialWeeks(d)}
                .points=${d.weeklyCost.map((w) => ({ key: w.weekStart, start: Date.parse(w.weekStart), cost: w.cost, byModel: { 'All models': w.cost } }))}></cost-chart-series>
            </section>
          </div>`}
      <section class="panel">
        <cost-table view="insights" caption=${d.blocksInRange > d.blocks.length ? `Latest 5-hour blocks (${d.blocksInRange} in range)` : 'Recent 5-hour blocks'} .columns=${this._blockColumns()} .rows=${d.blocks} .rowKey=${(b: Block) => b.start}
          .defaultSort=${{ key: 'start', dir: 'desc' }} export-file=${exportName('blocks', d.range, 'csv').replace(/\.csv$/, '')}></cost-table>
      </section>
    `;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) return this._data.placeholder('Could not load insights', { cards: 5, rows: 6 });
    const d = l.data.data;
    return html`
      <header>
        <h2>Insights</h2>
        ${rangeText(d.range)}
        <span class="spacer"></span>
        ${exportJsonButton(exportName('insights', d.range, 'json'), d)}
      </header>
      ${viewBody(this._data.stale, this._body(l.data))}
      <cost-limits-section .refreshKey=${this.refreshKey}></cost-limits-section>
      <cost-usage-drivers></cost-usage-drivers>
    `;
  }

  static override styles = [
    viewStyles,
    css`
      .range, .muted { color: var(--ink-3); font-size: 13px; font-weight: 400; }
      button.usage { color: var(--ink-accent); border-color: var(--accent-dim); }
      button.usage:hover { color: var(--ink-1); }
      .block .cards { margin-bottom: 0; }
      .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); }
      @media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } }
      .panel.block { margin-bottom: 16px; }
      .bh { display: flex; align-items: center; gap: 10px; margin-bottom: 10px; }
      .bh h3 { flex: 1; margin: 0; }
      .modes { display: inline-flex; }
      .modes button { border-radius: 0; padding: 2px 8px; }
      .modes button:first-child { border-radius: 6px 0 0 6px; }
      .modes button:last-child { border-radius: 0 6px 6px 0; margin-left: -1px; }
      .modes button[aria-pressed='true'] { background: var(--selected-bg); color: var(--ink-1); border-color: var(--accent-dim); }
    `,
  ];
}

customElements.define('cost-insights-view', CostInsightsView);

declare global {
  interface HTMLElementTagNameMap {
    'cost-insights-view': CostInsightsView;
  }
}
