import { css, html, nothing } from 'lit';
import type { MachineRow, Overview, ProjectRow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { customRange, rangeParams, scopeParams } from '../state.ts';
import { dayKey } from '../../../src/calendar/days.ts';
import { lastDays } from '../../../src/calendar/periods.ts';
import { dayOf, systemZone } from '../../../src/calendar/zone.ts';
import { formatBytes, formatCount, formatDate, formatDateTime, formatInt, formatMoment, formatPercent, formatRelative, formatTokens, formatUsd, shortModel } from '../format.ts';
import { modelPalette } from '../chart-colors.ts';
import { exportName } from '../export.ts';
import { indexingPhase, indexingRatio, soFar } from '../indexing.ts';
import { LONG_LIST_PAGE, type Column } from './cost-table.ts';
import { groupByRepository, type GroupedRow } from '../repositories.ts';
import { DataView } from './data-view.ts';
import { estimatedFastChip } from './estimated-fast.ts';
import { ViewData, anyIndexed, emit, exportJsonButton, indexingEmpty, rangeClause, rangeText, viewBody, viewStyles } from './view-kit.ts';
import { Task } from '@lit/task';
import { changeText, previousSpan } from '../previous-period.ts';
import './cost-chart-series.ts';
import type { PreviousSeries } from './cost-chart-series.ts';
import './cost-chart-bars.ts';
import './cost-stat-card.ts';
import './cost-glance-strip.ts';
import './cost-plan-money.ts';
import './cost-monthly-table.ts';
import './cost-empty.ts';
import './cost-retention-note.ts';
import { receiptButton } from './cost-receipt-dialog.ts';

interface Previous {
  totals: Overview['totals'];
  /** Its series for the chart's overlay, bucketed as the range's (the same number of days gives the same unit); one object per answer, so the chart redraws only for a new one. */
  series: PreviousSeries;
  label: string;
  /** The range it is the previous period of ('from|to'). */
  for: string;
}

/** A project's machines, most expensive first (each one's cost on hover); in the CSV their names, ', ' between. */
const machineColumn: Column<GroupedRow> = {
  key: 'machines', label: 'Machines', value: (p) => p.machines.map((m) => m.machine).join(', '),
  render: (p) => html`<span title=${p.machines.map((m) => `${m.machine}: ${formatUsd(m.cost)}`).join('\n')}>${p.machines.map((m) => m.machine).join(', ')}</span>`,
};

interface Loaded {
  data: Overview;
  /** False when the whole index is empty (not only this range). */
  anyData: boolean;
}

/**
 * The default view: headline figures, the cost series by model, cost by model and the projects table.
 *
 * @fires navigate - `{view: 'project', project}` when a project row is opened, `{view: 'repository', repository}` a repository's.
 * @fires scope - `{project, name}` when a project's scope button is clicked (`project: null` clears it).
 * @fires machine - `{machine}` when a machine row's filter button is clicked.
 */
export class CostOverviewView extends DataView {
  static override properties = {
    machine: { attribute: false },
    _flat: { state: true },
    _months: { state: true },
  };

  /** The machine filter (a label), null for every machine. */
  declare machine: string | null;
  /** List project folders flat instead of grouping worktrees under their repository. */
  private declare _flat: boolean;
  /** The monthly table is opened on demand: it reads the whole history and is not a first question. */
  private declare _months: boolean;

  constructor() {
    super();
    this._months = false;
    // The previous period of the same length, loaded after the figures so it never delays them (the controller
    // registers itself with this element).
    new Task(this, {
      args: () => [this._data.loaded?.data.data.range, this.scope, this.machine, this.refreshKey] as const,
      task: async ([range, scope, machine], { signal }): Promise<Previous | null> => {
        const span = range ? previousSpan(range) : null;
        if (!span) return null;
        const prev = await api.get<Overview>('/api/overview', { from: span.from, to: span.to, ...scopeParams(scope), ...(machine ? { machine } : {}) }, signal);
        // A previous period the first build has not read in full yet would make every change read "new" or "+900%".
        if (!prev.final) return null;
        const series = { label: span.label, points: prev.costSeries.points };
        return { totals: prev.totals, series, label: span.label, for: `${range!.from}|${range!.to}` };
      },
      onComplete: (v) => {
        if (v) this._prev = v;
      },
    });
    this.machine = null;
    this._flat = false;
  }

  // Escape hides the unpriced-models and estimated-fast tips until the pointer or focus comes back (WCAG 1.4.13: dismissible without
  // moving either); the key may reach the window from anywhere, as a hover does not move focus.
  private _onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') this.renderRoot.querySelectorAll('.unpriced, .estimated').forEach((el) => el.classList.add('dismissed'));
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this._onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this._onKey);
  }

  private _data = new ViewData(this, {
    args: () => [this.range, this.scope, this.machine] as const,
    refreshKey: () => this.refreshKey,
    load: async ([range, scope, machine], signal): Promise<Loaded> => {
      const data = await api.get<Overview>('/api/overview', { ...rangeParams(range), ...scopeParams(scope), ...(machine ? { machine } : {}) }, signal);
      // An empty range: ask whether anything was indexed at all, to say which empty state applies.
      const anyData = data.totals.messages > 0 || (await anyIndexed(signal));
      return { data, anyData };
    },
  });

  /** The per-machine table, shown only when the index holds more than one machine (decisions.md "Several machines"). */
  private _machines(d: Overview) {
    if (d.machines.length < 2) return nothing;
    const columns: Column<MachineRow>[] = [
      {
        key: 'filter', label: '', sortable: false, csv: false, value: () => null,
        render: (m) => html`<button class="icon" title=${`Limit every view to ${m.machine}`} aria-label=${`Filter to machine ${m.machine}`}
          @click=${(e: Event) => { e.stopPropagation(); emit(this, 'machine', { machine: m.machine }); }}>
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M2 3h12l-4.5 5.5V13l-3-1.5V8.5z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/></svg>
        </button>`,
      },
      { key: 'machine', label: 'Machine', value: (m) => m.machine, render: (m) => html`<span class="primary">${m.machine}</span>` },
      { key: 'cost', label: 'Cost', numeric: true, value: (m) => m.cost, render: (m) => html`<b>${formatUsd(m.cost)}</b>` },
      { key: 'sessions', label: 'Sessions', numeric: true, value: (m) => m.sessions, render: (m) => formatInt(m.sessions) },
      { key: 'messages', label: 'Messages', numeric: true, value: (m) => m.messages, render: (m) => formatInt(m.messages) },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (m) => m.totalTokens, render: (m) => formatTokens(m.totalTokens) },
      { key: 'last', label: 'Last activity', value: (m) => m.lastActivity, render: (m) => html`<span title=${formatDateTime(m.lastActivity)}>${formatRelative(m.lastActivity)}</span>` },
    ];
    return html`<section class="panel machines">
      <cost-table view="machines" caption="Machines" .columns=${columns} .rows=${d.machines} .rowKey=${(m: MachineRow) => m.machine}
        .defaultSort=${{ key: 'cost', dir: 'desc' }} export-file=${exportName('machines', d.range, 'csv').replace(/\.csv$/, '')}
        @row-open=${(e: CustomEvent<{ row: MachineRow }>) => emit(this, 'machine', { machine: e.detail.row.machine })}></cost-table>
    </section>`;
  }

  /** The last previous-period answer: a refresh that aborts or fails keeps the line instead of dropping it. */
  private _prev: Previous | null = null;

  /**
   * An empty range over a history: when the last activity was (anywhere: the index's newest entry) and a button to the
   * 30 days that end on its day.
   */
  private _lastActivity(d: Overview) {
    const last = d.health.newestEntry;
    if (!last) return nothing;
    const days = lastDays(30, dayOf(systemZone, Date.parse(last)));
    const range = customRange(dayKey(days.from), dayKey(days.to));
    return html`<p class="last">Last activity: ${formatMoment(last)}.</p>
      <button class="show-last" @click=${() => range && emit(this, 'range-change', { range })}>Show the 30 days up to ${formatDate(last)}</button>`;
  }

  /** "+18% vs previous 30 days" under a card, once the previous period of this very range has loaded. */
  private _change(d: Overview, pick: (t: Overview['totals']) => number) {
    const p = this._prev;
    if (!p || p.for !== `${d.range.from}|${d.range.to}`) return nothing;
    return html`<div class="change">${changeText(pick(d.totals), pick(p.totals), p.label)}</div>`;
  }

  /** The previous period's series for the chart's overlay, once it answers this very range. */
  private _prevSeries(d: Overview): PreviousSeries | null {
    const p = this._prev;
    return p && p.for === `${d.range.from}|${d.range.to}` ? p.series : null;
  }

  /** With more than one machine, which machines' copies of a folder hold its usage (also a CSV column). */
  private _columns(machines: boolean): Column<GroupedRow>[] {
    return [
      {
        key: 'scope', label: '', sortable: false, csv: false, value: () => null,
        render: (p) => {
          // A repository row's id is its scope (repositories.ts), so it scopes every folder it sums.
          const on = this.scope === p.id;
          const what = p.folders ? 'repository' : 'project';
          return html`<button class="icon ${on ? 'on' : ''}" title=${on ? `Clear the ${what} scope` : `Limit every view to ${p.folders ? `every folder of ${p.name}` : p.name}`}
            aria-label=${on ? `Clear scope ${p.name}` : `Scope to ${p.name}`} aria-pressed=${on}
            @click=${(e: Event) => { e.stopPropagation(); emit(this, 'scope', on ? { project: null } : { project: p.id, name: p.name }); }}>
            <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><circle cx="8" cy="8" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="8" cy="8" r="2" fill="currentColor"/></svg>
          </button>`;
        },
      },
      { key: 'name', label: 'Project', value: (p) => p.name,
        render: (p) => p.folders
          ? html`<span class="primary" title=${p.repository.id}>${p.name}</span> <span class="tag">${p.folders.length} worktrees</span>`
          : html`<span class="primary" title=${p.id}>${p.name}</span>` },
      { key: 'cost', label: 'Cost', numeric: true, value: (p) => p.cost, render: (p) => html`<b>${formatUsd(p.cost)}</b>` },
      { key: 'sessions', label: 'Sessions', numeric: true, value: (p) => p.sessions, render: (p) => formatInt(p.sessions) },
      { key: 'messages', label: 'Messages', numeric: true, value: (p) => p.messages, render: (p) => formatInt(p.messages) },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (p) => p.totalTokens, render: (p) => formatTokens(p.totalTokens) },
      { key: 'last', label: 'Last activity', value: (p) => p.lastActivity, render: (p) => html`<span title=${formatDateTime(p.lastActivity)}>${formatRelative(p.lastActivity)}</span>` },
      { key: 'model', label: 'Top model', value: (p) => p.topModel, render: (p) => (p.topModel ? html`<span title=${p.topModel}>${shortModel(p.topModel)}</span>` : '—') },
      ...(machines ? [machineColumn] : []),
    ];
  }

  /** A repository row opens the repository (its disclosure button expands it in place); a folder row its project. */
  private _open(e: CustomEvent<{ row: GroupedRow }>): void {
    const row = e.detail.row;
    if (row.folders) emit(this, 'navigate', { view: 'repository', repository: row.repository.id });
    else emit(this, 'navigate', { view: 'project', project: row.id });
  }

  /** The warning chip; hover or focus shows each unpriced model with its tokens (a native title would not show on focus). */
  private _unpriced(d: Overview) {
    const models = d.unpricedModels;
    if (!models.length) return nothing;
    const reset = (e: Event) => (e.currentTarget as HTMLElement).classList.remove('dismissed');
    return html`<span class="unpriced" @mouseenter=${reset} @focusin=${reset}>
      <span class="chip warn" tabindex="0" aria-describedby="unpriced-tip">
        ${models.length} unpriced model${models.length > 1 ? 's' : ''}: ${models.map((m) => m.model).join(', ')}</span>
      <span class="tip" id="unpriced-tip" role="tooltip">
        <span class="tip-head">No price found for these models: their usage counts as $0.</span>
        ${models.map((m) => html`<span class="tip-row" data-model=${m.model}><b>${m.model}</b>
          ${formatTokens(m.totalTokens)} tokens in ${formatInt(m.messages)} message${m.messages === 1 ? '' : 's'}</span>`)}
      </span>
    </span>`;
  }

  private _indexing(d: Overview) {
    const i = d.indexing;
    const phase = indexingPhase(i);
    if (phase === 'done') return nothing;
    // On every start, a second or less on a restart with nothing new.
    if (phase === 'checking') {
      return html`<div class="indexing" role="status">
        <span>Checking transcripts for changes since the index was last written…</span>
        <progress aria-label="Checking transcripts"></progress>
      </div>`;
    }
    const ratio = indexingRatio(i);
    return html`<div class="indexing" role="status">
      <span>Indexing transcripts: ${formatInt(i.filesDone)} of ${formatInt(i.filesTotal)} files (${formatBytes(i.bytesDone)} of ${formatBytes(i.bytesTotal)}). Figures grow as files are read.</span>
      <progress max="1" value=${ratio} aria-label="Indexing progress"></progress>
    </div>`;
  }

  /** Data newer than the server's clock: ranges end today by that clock, so without this note the newest usage shows $0. */
  private _clock(d: Overview) {
    const h = d.health;
    if (!h.dataInFuture || !h.newestEntry) return nothing;
    return html`<div class="note clock" role="note">
      The newest usage entry (${formatDateTime(h.newestEntry)}) is later than this computer's clock (${formatDateTime(new Date())}).
      Check the system clock and time zone: ranges end today by this clock, so usage on later days is left out.
    </div>`;
  }

  /** What happened to the index file itself (a recovery from damage): the figures depend on it, so it is not quiet. */
  private _indexNotes(d: Overview) {
    return (d.health.index ?? []).map((text) => html`<div class="note index" role="note">${text}</div>`);
  }

  /** Lines the index could not count, quietly: most users never have any. */
  private _skipped(d: Overview) {
    const s = d.health.skipped;
    const lines = s.malformed + s.outOfRange + s.oversized;
    if (!lines && !s.unreadableFiles && !s.unreadableFolders) return nothing;
    const reasons: [number, string][] = [
      [s.malformed, 'malformed'],
      [s.outOfRange, 'with impossible numbers'],
      [s.oversized, 'too big'],
    ];
    const why = reasons.filter(([n]) => n > 0).map(([n, what]) => `${formatInt(n)} ${what}`);
    const parts = [
      ...(lines ? [`${formatCount(lines, 'transcript line')} skipped (${why.join(', ')})`] : []),
      ...(s.unreadableFiles ? [`${formatCount(s.unreadableFiles, 'file')} unreadable`] : []),
      ...(s.unreadableFolders ? [`${formatCount(s.unreadableFolders, 'folder')} unreadable`] : []),
    ];
    return html`<p class="skipped" title="Counted over the whole index; the server log names each file.">${parts.join(' · ')}</p>`;
  }

  private _body(l: Loaded) {
    const d = l.data;
    const t = d.totals;
    if (t.messages === 0) {
      if (!d.indexing.done) return indexingEmpty();
      return l.anyData
        ? html`<cost-empty heading="Nothing in this range" message=${`No usage ${rangeClause(d.range)}${d.repository ? ' in this repository' : d.project ? ' in this project' : ''}. Pick a longer range${d.project || d.repository ? ' or clear the scope' : ''}.`}>
            ${this._lastActivity(d)}</cost-empty>`
        : html`<cost-empty heading=${`No transcripts found in ${d.dirs.join(', ') || 'the config dir'}`}
            message="Start the server with --dir pointing at the agent's config dir (the folder that holds projects/), or run a session first."></cost-empty>`;
    }
    const pal = modelPalette(d.costByModel.map((m) => [m.model, m.cost]));
    // Long ranges come summed by week or month (the server's bucketing).
    const series = d.costSeries;
    return html`
      <div class="cards">
        <cost-stat-card data-stat="cost" label=${soFar('Range cost', d.final)} value=${formatUsd(t.cost)} sub=${`${formatCount(t.messages, 'message')} · ${formatCount(t.projects, 'project')}`}
          hint="Sum of every priced API response in the range: a line's costUSD when present, else tokens × catalogue prices.">${this._change(d, (x) => x.cost)}
          ${receiptButton('the range cost', () => ({ ...rangeParams(this.range), ...scopeParams(this.scope), ...(this.machine ? { machine: this.machine } : {}) }))}</cost-stat-card>
        <cost-stat-card data-stat="sessions" label="Sessions" value=${formatInt(t.sessions)} sub=${formatCount(t.projects, 'project')}
          hint="Sessions with at least one usage entry in the range.">${this._change(d, (x) => x.sessions)}</cost-stat-card>
        <cost-stat-card data-stat="tokens" label="Tokens" value=${formatTokens(t.totalTokens)} sub=${`in ${formatTokens(t.inputTokens)} · out ${formatTokens(t.outputTokens)}`}
          hint=${`All tokens: input ${formatInt(t.inputTokens)}, output ${formatInt(t.outputTokens)}, cache write ${formatInt(t.cacheCreationTokens)}, cache read ${formatInt(t.cacheReadTokens)}.`}>${this._change(d, (x) => x.totalTokens)}</cost-stat-card>
        <cost-stat-card data-stat="cache" label="Cache efficiency" value=${formatPercent(d.cacheEfficiency)} sub=${`${formatTokens(t.cacheReadTokens)} read from cache`}
          hint="Cache read tokens ÷ (input + cache write + cache read tokens): the share of prompt tokens served from the cache."></cost-stat-card>
      </div>
      <div class="grid">
        <section class="panel">
          <h3>Cost per ${series.bucket}</h3>
          <cost-chart-series .points=${series.points} .palette=${pal} bucket=${series.bucket} label="Cost"
            .previous=${this._prevSeries(d)}></cost-chart-series>
        </section>
        <section class="panel">
          <h3>Cost by model</h3>
          <cost-chart-bars label="Cost by model" .format=${formatUsd}
            .items=${d.costByModel.map((m) => ({ label: shortModel(m.model), value: m.cost, color: pal.color(m.model),
              detail: `${m.model}\n${formatUsd(m.cost)} · ${formatInt(m.messages)} messages\nin ${formatInt(m.inputTokens)} · out ${formatInt(m.outputTokens)} · cache write ${formatInt(m.cacheCreationTokens)} · cache read ${formatInt(m.cacheReadTokens)}` }))}></cost-chart-bars>
        </section>
      </div>
      ${this._machines(d)}
      <section class="panel">
        <cost-table view="overview" caption="Projects" filter="Filter projects" page-size=${LONG_LIST_PAGE} .columns=${this._columns(d.machines.length > 1)} .rowKey=${(p: ProjectRow) => p.id}
          .rows=${this._flat ? d.projects : groupByRepository(d.projects)} .childrenOf=${(p: GroupedRow) => p.folders ?? []}
          .defaultSort=${{ key: 'cost', dir: 'desc' }} export-file=${exportName('projects', d.range, 'csv').replace(/\.csv$/, '')}
          @row-open=${(e: CustomEvent<{ row: GroupedRow }>) => this._open(e)}>
          <button slot="actions" class="group" aria-pressed=${!this._flat} @click=${() => (this._flat = !this._flat)}
            title="Group the worktrees of a repository under one row, or list every project folder">Group worktrees</button>
        </cost-table>
      </section>
      <details class="months" @toggle=${(e: Event) => (this._months = (e.target as HTMLDetailsElement).open)}>
        <summary>Every month</summary>
        ${this._months ? html`<cost-monthly-table .scope=${this.scope} .refreshKey=${this.refreshKey}></cost-monthly-table>` : nothing}
      </details>
    `;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) return this._data.placeholder('Could not load the overview', { cards: 5, rows: 8 });
    const d = l.data.data;
    return html`
      <header>
        <h2>Overview</h2>
        ${rangeText(d.range)}
        ${this._unpriced(d)}
        ${estimatedFastChip(d.estimatedFastModels)}
        <span class="spacer"></span>
        ${exportJsonButton(exportName('overview', d.range, 'json'), d)}
      </header>
      <cost-glance-strip .scope=${this.scope} .refreshKey=${this.refreshKey}></cost-glance-strip>
      <cost-plan-money .refreshKey=${this.refreshKey}></cost-plan-money>
      ${this._indexing(d)}
      ${this._clock(d)}
      ${this._indexNotes(d)}
      <cost-retention-note .refreshKey=${this.refreshKey}></cost-retention-note>
      ${viewBody(this._data.stale, this._body(l.data))}
      ${this._skipped(d)}
    `;
  }

  static override styles = [
    viewStyles,
    css`
      /* Slotted into a stat card: the change against the previous period of the same length. */
      .last { margin: 0 0 8px; color: var(--ink-2); }
      .months { margin-top: 16px; }
      .months summary { cursor: pointer; color: var(--ink-2); font-size: 13px; width: max-content; }
      .months summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
      .change { font-size: 12px; color: var(--ink-2); margin-top: 4px; font-variant-numeric: tabular-nums; }
      .unpriced, .estimated { position: relative; display: inline-flex; min-width: 0; }
      .chip { font-size: 12px; padding: 3px 9px; border-radius: 999px; cursor: help; max-width: 50ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .chip:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
      .chip.warn { color: var(--warning, #d29922); border: 1px solid var(--warning, #d29922); }
      .chip.note { color: var(--ink-2); border: 1px dashed var(--border); }
      .tip { display: none; position: absolute; top: calc(100% + 6px); left: 0; z-index: 5; width: max-content; max-width: min(460px, 80vw);
        padding: 8px 10px; background: var(--bg-elevated); border: 1px solid var(--border); border-radius: 8px;
        box-shadow: 0 6px 20px rgb(0 0 0 / 0.25); font-size: 12px; color: var(--ink-2); }
      :is(.unpriced, .estimated):is(:hover, :focus-within):not(.dismissed) .tip { display: grid; gap: 4px; }
      .tip-head { color: var(--ink-1); }
      .tip-row b { font-weight: 600; color: var(--ink-1); margin-right: 6px; }
      .indexing { display: flex; align-items: center; gap: 12px; font-size: 13px; color: var(--ink-2); background: var(--bg-elevated);
        border: 1px solid var(--border); border-radius: 8px; padding: 8px 12px; margin-bottom: 14px; }
      .indexing progress { flex: 0 0 160px; accent-color: var(--accent); }
      .note.clock, .note.index { font-size: 13px; color: var(--ink-1); border: 1px solid var(--warning, #d29922); border-radius: 8px;
        padding: 8px 12px; margin-bottom: 14px; }
      .skipped { font-size: 12px; color: var(--ink-3, var(--ink-2)); margin: 14px 0 0; }
      .machines { margin-bottom: 16px; }
      button[aria-pressed='true'] { background: var(--selected-bg); color: var(--ink-1); border-color: var(--accent); }
    `,
  ];
}

customElements.define('cost-overview-view', CostOverviewView);

declare global {
  interface HTMLElementTagNameMap {
    'cost-overview-view': CostOverviewView;
  }
}
