import { css, html, nothing } from 'lit';
import type { BranchRow, Insights, ProjectSessions, SessionRow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { rangeParams } from '../state.ts';
import { formatCount, formatDateTime, formatDuration, formatInt, formatTokens, formatUsd } from '../format.ts';
import { exportName } from '../export.ts';
import { LONG_LIST_PAGE, type Column } from './cost-table.ts';
import { DataView } from './data-view.ts';
import { ViewData, emit, exportJsonButton, rangeClause, rangeText, viewBody, viewStyles } from './view-kit.ts';
import { branchColumns, branchLabel } from './branch-columns.ts';
import { modelList } from './model-list.ts';
import { costPanels, tokensCard } from './scope-spend.ts';
import './cost-stat-card.ts';
import './cost-empty.ts';
import './cost-cause-tables.ts';
import { receiptButton } from './cost-receipt-dialog.ts';

const span = (s: SessionRow) => Date.parse(s.lastActivity) - Date.parse(s.firstActivity);

/**
 * One project: its cost series and model split, and its sessions table.
 *
 * @fires navigate - `{view: 'detail', session, project}` when a session row is opened; `{view: 'overview'}` for back.
 * @fires scope - `{project, name}` from the "Scope to project" button (`project: null` clears it).
 */
export class CostProjectView extends DataView {
  static override properties = {
    project: {},
  };

  /** Encoded project folder name. */
  declare project: string;

  constructor() {
    super();
    this.project = '';
  }

  private _data = new ViewData(this, {
    args: () => [this.range, this.project] as const,
    refreshKey: () => this.refreshKey,
    load: ([range, project], signal) =>
      api.get<ProjectSessions>(`/api/projects/${encodeURIComponent(project)}/sessions`, rangeParams(range), signal),
  });

  /** The project's cost by what caused it: its insights' breakdowns (the rest of them is the Insights view's). */
  private _causes = new ViewData(this, {
    args: () => [this.range, this.project] as const,
    refreshKey: () => this.refreshKey,
    load: ([range, project], signal) => api.get<Insights>('/api/insights', { ...rangeParams(range), project }, signal),
  });

  private _columns(): Column<SessionRow>[] {
    return [
      { key: 'title', label: 'Session', value: (s) => s.title,
        render: (s) => html`<span class="primary clamp" title=${`${s.title}\n${s.id}`}>${s.title}</span>${s.gone ? html` <span class="tag" title="The transcript was deleted from disk; its usage stays in the index">deleted</span>` : nothing}` },
      { key: 'cost', label: 'Cost', numeric: true, value: (s) => s.cost, 
        render: (s) => html`<b>${formatUsd(s.cost)}</b> ${receiptButton(`the cost of ${s.title}`, () => ({ ...rangeParams(this.range), session: s.id }), '?')}` },
      { key: 'messages', label: 'Messages', numeric: true, value: (s) => s.messages, render: (s) => formatInt(s.messages) },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (s) => s.totalTokens, render: (s) => formatTokens(s.totalTokens) },
      { key: 'branches', label: 'Branch', value: (s) => s.branches.join(' '),
        render: (s) => html`<span class="branch" title=${s.branches.map(branchLabel).join('\n')}>${s.branches.map(branchLabel).join(', ') || '—'}</span>` },
      { key: 'models', label: 'Models', value: (s) => s.models.join(' '), render: (s) => modelList(s.models) },
      { key: 'first', label: 'First activity', value: (s) => s.firstActivity, render: (s) => formatDateTime(s.firstActivity) },
      { key: 'last', label: 'Last activity', value: (s) => s.lastActivity, render: (s) => formatDateTime(s.lastActivity) },
      { key: 'duration', label: 'Duration', numeric: true, value: span, render: (s) => formatDuration(span(s)), title: 'Last activity − first activity in the range' },
      { key: 'subagent', label: 'Subagent cost', numeric: true, value: (s) => s.subagentCost, render: (s) => (s.subagentCost ? formatUsd(s.subagentCost) : '—'), title: 'Part of the cost spent by subagents (Task) of the session' },
    ];
  }

  private _body(d: ProjectSessions) {
    if (!d.sessions.length) {
      return html`<cost-empty heading="Nothing in this range" message=${`${d.project.name} has no usage ${rangeClause(d.range)}. Pick a longer range.`}></cost-empty>`;
    }
    const t = d.totals;
    // Warmup-only sessions are folded into one line under the table rather than listed as rows without a prompt.
    const sessions = d.sessions.filter((s) => !s.warmup);
    const warmups = d.sessions.filter((s) => s.warmup);
    return html`
      <div class="cards">
        <cost-stat-card data-stat="cost" label="Cost" value=${formatUsd(t.cost)} sub=${formatCount(t.messages, 'message')}
          hint="Sum of the project's priced API responses in the range."></cost-stat-card>
        <cost-stat-card data-stat="sessions" label="Sessions" value=${formatInt(d.sessions.length)} sub=${`avg ${formatUsd(t.cost / d.sessions.length)} each`}
          hint="Sessions of this project with usage in the range; average = cost ÷ sessions."></cost-stat-card>
        ${tokensCard(t)}
      </div>
      ${costPanels(d.costSeries, d.costByModel, 'Project cost')}
      <cost-cause-tables view="project" .data=${this._causes.stale ? null : this._causes.loaded?.data ?? null}></cost-cause-tables>
      ${d.branches.length > 1 || (d.branches[0] && d.branches[0].branch !== null)
        ? html`<section class="panel branches">
            <cost-table view="project-branches" caption="Branches" .columns=${branchColumns()} .rows=${d.branches}
              .rowKey=${(b: BranchRow) => b.branch ?? ''} .defaultSort=${{ key: 'cost', dir: 'desc' }}
              export-file=${exportName(`branches-${d.project.id}`, d.range, 'csv').replace(/\.csv$/, '')}></cost-table>
          </section>`
        : nothing}
      <section class="panel">
        <cost-table view="project" caption="Sessions" filter="Filter sessions" page-size=${LONG_LIST_PAGE} .columns=${this._columns()} .rows=${sessions} .rowKey=${(s: SessionRow) => s.id}
          .defaultSort=${{ key: 'last', dir: 'desc' }} .rowClass=${(s: SessionRow) => (s.gone ? 'gone' : '')}
          export-file=${exportName(`sessions-${d.project.id}`, d.range, 'csv').replace(/\.csv$/, '')}
          @row-open=${(e: CustomEvent<{ row: SessionRow }>) => emit(this, 'navigate', { view: 'detail', session: e.detail.row.id, project: d.project.id })}></cost-table>
        ${warmups.length ? html`<p class="folded" data-folded="warmup" title="Claude Code's start-up side calls: no prompt of their own. Their cost is in the project's figures above.">
            ${formatCount(warmups.length, 'Warmup side call')} folded here · ${formatUsd(warmups.reduce((sum, s) => sum + s.cost, 0))}</p>` : nothing}
      </section>
    `;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) {
      return this._data.placeholder('Could not load the project', { cards: 3, rows: 8 },
        html`<button @click=${() => emit(this, 'navigate', { view: 'overview' })}>Back to overview</button>`);
    }
    const d = l.data;
    const scoped = this.scope === d.project.id;
    return html`
      <header>
        <button class="back" @click=${() => emit(this, 'navigate', { view: 'overview' })} aria-label="Back to overview">←</button>
        <h2 title=${d.project.id}>${d.project.name}</h2>
        ${rangeText(d.range)}
        <span class="spacer"></span>
        <button class="scope" aria-pressed=${scoped} @click=${() => emit(this, 'scope', scoped ? { project: null } : { project: d.project.id, name: d.project.name })}
          title="Limit the overview and insights to this project">${scoped ? 'Clear scope' : 'Scope to project'}</button>
        ${exportJsonButton(exportName(`project-${d.project.id}`, d.range, 'json'), d)}
      </header>
      ${viewBody(this._data.stale, this._body(d))}
    `;
  }

  static override styles = [
    viewStyles,
    css`
      button[aria-pressed='true'] { background: var(--selected-bg); color: var(--ink-1); border-color: var(--accent); }
      .panel.branches { margin-bottom: 16px; }
      .folded { margin: 8px 0 0; color: var(--ink-2); font-size: 12px; }
    `,
  ];
}

customElements.define('cost-project-view', CostProjectView);

declare global {
  interface HTMLElementTagNameMap {
    'cost-project-view': CostProjectView;
  }
}
