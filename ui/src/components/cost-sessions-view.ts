import { css, html, nothing } from 'lit';
import type { SessionList, SessionListRow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { rangeParams, scopeParams } from '../state.ts';
import { formatCount, formatDateTime, formatInt, formatTokens, formatUsd } from '../format.ts';
import { exportName } from '../export.ts';
import { LONG_LIST_PAGE, type Column } from './cost-table.ts';
import { DataView } from './data-view.ts';
import { ViewData, emit, exportJsonButton, rangeClause, rangeText, viewBody, viewStyles } from './view-kit.ts';
import { branchLabel } from './branch-columns.ts';
import { modelList } from './model-list.ts';
import './cost-empty.ts';
import { receiptButton } from './cost-receipt-dialog.ts';

/**
 * The range's sessions across projects, the dearest first: where the money went, found in one step.
 *
 * @fires navigate - `{view: 'detail', session, project}` when a session row is opened.
 */
export class CostSessionsView extends DataView {
  static override properties = {
    machine: { attribute: false },
  };

  /** The machine filter (a label), null for every machine. */
  declare machine: string | null;

  constructor() {
    super();
    this.machine = null;
  }

  private _data = new ViewData(this, {
    args: () => [this.range, this.scope, this.machine] as const,
    refreshKey: () => this.refreshKey,
    load: ([range, scope, machine], signal) =>
      api.get<SessionList>('/api/sessions', { ...rangeParams(range), ...scopeParams(scope), ...(machine ? { machine } : {}) }, signal),
  });

  private _columns(): Column<SessionListRow>[] {
    return [
      { key: 'title', label: 'Session', value: (s) => s.title,
        render: (s) => html`<span class="primary clamp" title=${`${s.title}\n${s.id}`}>${s.title}</span>${s.gone ? html` <span class="tag" title="The transcript was deleted from disk; its usage stays in the index">deleted</span>` : nothing}` },
      { key: 'cost', label: 'Cost', numeric: true, value: (s) => s.cost,
        render: (s) => html`<b>${formatUsd(s.cost)}</b> ${receiptButton(`the cost of ${s.title}`, () => ({ ...rangeParams(this.range), session: s.id }), '?')}` },
      { key: 'project', label: 'Project', value: (s) => s.project.name, render: (s) => html`<span title=${s.project.id}>${s.project.name}</span>` },
      { key: 'branches', label: 'Branch', value: (s) => s.branches.join(' '),
        render: (s) => html`<span class="branch" title=${s.branches.map(branchLabel).join('\n')}>${s.branches.map(branchLabel).join(', ') || '—'}</span>` },
      { key: 'machine', label: 'Machine', value: (s) => s.machine },
      { key: 'models', label: 'Models', value: (s) => s.models.join(' '), render: (s) => modelList(s.models), title: 'The dearest first' },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (s) => s.totalTokens, render: (s) => formatTokens(s.totalTokens) },
      { key: 'last', label: 'Last activity', value: (s) => s.lastActivity, render: (s) => formatDateTime(s.lastActivity) },
    ];
  }

  private _body(d: SessionList) {
    if (!d.sessions.length) {
      return html`<cost-empty heading="No session in this range" message=${`No session has usage ${rangeClause(d.range)}. Pick a longer range.`}></cost-empty>`;
    }
    const shown = d.total > d.sessions.length ? `the ${formatInt(d.sessions.length)} dearest of ${formatInt(d.total)}` : formatCount(d.total, 'session');
    return html`
      <section class="panel">
        <cost-table view="sessions" caption="Sessions" filter="Filter sessions" page-size=${LONG_LIST_PAGE} .columns=${this._columns()} .rows=${d.sessions} .rowKey=${(s: SessionListRow) => `${s.project.id}/${s.id}`}
          .defaultSort=${{ key: 'cost', dir: 'desc' }} .rowClass=${(s: SessionListRow) => (s.gone ? 'gone' : '')}
          export-file=${exportName('sessions', d.range, 'csv').replace(/\.csv$/, '')}
          @row-open=${(e: CustomEvent<{ row: SessionListRow }>) => emit(this, 'navigate', { view: 'detail', session: e.detail.row.id, project: e.detail.row.project.id })}></cost-table>
        <p class="note" data-note="shown">${shown}${d.warmup.sessions
          ? html` · <span data-folded="warmup" title="Claude Code's start-up side calls: no prompt of their own">${formatCount(d.warmup.sessions, 'Warmup side call')} folded · ${formatUsd(d.warmup.cost)}</span>`
          : nothing}</p>
      </section>
    `;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) return this._data.placeholder('Could not load the sessions', { cards: 0, rows: 10 });
    const d = l.data;
    return html`
      <header>
        <h2>Sessions</h2>
        ${rangeText(d.range)}
        <span class="spacer"></span>
        ${exportJsonButton(exportName('sessions', d.range, 'json'), d)}
      </header>
      ${viewBody(this._data.stale, this._body(d))}
    `;
  }

  static override styles = [viewStyles, css`.note { margin: 8px 0 0; color: var(--ink-2); font-size: 12px; }`];
}

customElements.define('cost-sessions-view', CostSessionsView);

declare global {
  interface HTMLElementTagNameMap {
    'cost-sessions-view': CostSessionsView;
  }
}
