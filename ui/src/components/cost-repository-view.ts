import { css, html } from 'lit';
import type { BranchRow, ProjectRow, RepositoryDetail, SessionList, SessionListRow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { rangeParams, repositoryScope } from '../state.ts';
import { formatCount, formatDateTime, formatInt, formatRelative, formatTokens, formatUsd, shortModel } from '../format.ts';
import { exportName } from '../export.ts';
import { LONG_LIST_PAGE, type Column } from './cost-table.ts';
import { DataView } from './data-view.ts';
import { ViewData, emit, exportJsonButton, rangeClause, rangeText, viewBody, viewStyles } from './view-kit.ts';
import { branchColumns, branchLabel } from './branch-columns.ts';
import { modelList } from './model-list.ts';
import { costPanels, tokensCard } from './scope-spend.ts';
import './cost-stat-card.ts';
import './cost-empty.ts';
import { receiptButton } from './cost-receipt-dialog.ts';

/**
 * One repository: its project folders (main checkout and worktrees) summed, the cost chart and model split of all,
 * each folder, the branches and the sessions (the dearest first).
 *
 * @fires navigate - `{view: 'project', project}` when a folder row is opened; `{view: 'detail', session, project}` for
 * a session row; `{view: 'overview'}` for back.
 * @fires scope - `{project: <repository scope>, name}` from the "Scope to repository" button (`project: null` clears it).
 */
export class CostRepositoryView extends DataView {
  static override properties = {
    repository: {},
  };

  /** The repository's main checkout path. The scope only shows whether this repository is it. */
  declare repository: string;

  constructor() {
    super();
    this.repository = '';
  }

  private _data = new ViewData(this, {
    args: () => [this.range, this.repository] as const,
    refreshKey: () => this.refreshKey,
    load: async ([range, id], signal) => {
      const [detail, sessions] = await Promise.all([
        api.get<RepositoryDetail>('/api/repository', { ...rangeParams(range), id }, signal),
        api.get<SessionList>('/api/sessions', { ...rangeParams(range), repository: id }, signal),
      ]);
      return { ...detail, sessions };
    },
  });

  private _sessionColumns(): Column<SessionListRow>[] {
    return [
      { key: 'title', label: 'Session', value: (s) => s.title, render: (s) => html`<span class="primary clamp" title=${`${s.title}\n${s.id}`}>${s.title}</span>` },
      { key: 'cost', label: 'Cost', numeric: true, value: (s) => s.cost, 
        render: (s) => html`<b>${formatUsd(s.cost)}</b> ${receiptButton(`the cost of ${s.title}`, () => ({ ...rangeParams(this.range), session: s.id }), '?')}` },
      { key: 'folder', label: 'Folder', value: (s) => s.project.name, render: (s) => html`<span title=${s.project.id}>${s.project.name}</span>` },
      { key: 'branches', label: 'Branch', value: (s) => s.branches.join(' '), render: (s) => s.branches.map(branchLabel).join(', ') || '—' },
      { key: 'models', label: 'Models', value: (s) => s.models.join(' '), render: (s) => modelList(s.models) },
      { key: 'last', label: 'Last activity', value: (s) => s.lastActivity, render: (s) => formatDateTime(s.lastActivity) },
    ];
  }

  private _columns(): Column<ProjectRow>[] {
    return [
      { key: 'name', label: 'Folder', value: (p) => p.name, render: (p) => html`<span class="primary" title=${p.id}>${p.name}</span>` },
      { key: 'cost', label: 'Cost', numeric: true, value: (p) => p.cost, render: (p) => html`<b>${formatUsd(p.cost)}</b>` },
      { key: 'sessions', label: 'Sessions', numeric: true, value: (p) => p.sessions, render: (p) => formatInt(p.sessions) },
      { key: 'messages', label: 'Messages', numeric: true, value: (p) => p.messages, render: (p) => formatInt(p.messages) },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (p) => p.totalTokens, render: (p) => formatTokens(p.totalTokens) },
      { key: 'last', label: 'Last activity', value: (p) => p.lastActivity, render: (p) => html`<span title=${formatDateTime(p.lastActivity)}>${formatRelative(p.lastActivity)}</span>` },
      { key: 'model', label: 'Top model', value: (p) => p.topModel, render: (p) => (p.topModel ? html`<span title=${p.topModel}>${shortModel(p.topModel)}</span>` : '—') },
    ];
  }

  private _body(d: RepositoryDetail & { sessions: SessionList }) {
    if (!d.projects.length) {
      return html`<cost-empty heading="Nothing in this range" message=${`${d.repository.name} has no usage ${rangeClause(d.range)}. Pick a longer range.`}></cost-empty>`;
    }
    const t = d.totals;
    return html`
      <div class="cards">
        <cost-stat-card data-stat="cost" label="Cost" value=${formatUsd(t.cost)} sub=${formatCount(t.messages, 'message')}
          hint="Sum of the repository's folders (its main checkout and worktrees) in the range."></cost-stat-card>
        <cost-stat-card data-stat="folders" label="Folders" value=${formatInt(d.projects.length)} sub=${formatCount(t.sessions, 'session')}
          hint="Project folders of this repository with usage in the range."></cost-stat-card>
        ${tokensCard(t)}
      </div>
      ${costPanels(d.costSeries, d.costByModel, 'Repository cost')}
      <section class="panel">
        <cost-table view="repository" caption="Folders" .columns=${this._columns()} .rows=${d.projects} .rowKey=${(p: ProjectRow) => p.id}
          .defaultSort=${{ key: 'cost', dir: 'desc' }} export-file=${exportName(`folders-${d.repository.name}`, d.range, 'csv').replace(/\.csv$/, '')}
          @row-open=${(e: CustomEvent<{ row: ProjectRow }>) => emit(this, 'navigate', { view: 'project', project: e.detail.row.id })}></cost-table>
      </section>
      <section class="panel">
        <cost-table view="repository-branches" caption="Branches" .columns=${branchColumns()} .rows=${d.branches}
          .rowKey=${(b: BranchRow) => b.branch ?? ''} .defaultSort=${{ key: 'cost', dir: 'desc' }}
          export-file=${exportName(`branches-${d.repository.name}`, d.range, 'csv').replace(/\.csv$/, '')}></cost-table>
      </section>
      <section class="panel">
        <cost-table view="repository-sessions" caption="Sessions" filter="Filter sessions" page-size=${LONG_LIST_PAGE} .columns=${this._sessionColumns()} .rows=${d.sessions.sessions}
          .rowKey=${(s: SessionListRow) => `${s.project.id}/${s.id}`} .defaultSort=${{ key: 'cost', dir: 'desc' }}
          export-file=${exportName(`sessions-${d.repository.name}`, d.range, 'csv').replace(/\.csv$/, '')}
          @row-open=${(e: CustomEvent<{ row: SessionListRow }>) => emit(this, 'navigate', { view: 'detail', session: e.detail.row.id, project: e.detail.row.project.id })}></cost-table>
      </section>
    `;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) {
      return this._data.placeholder('Could not load the repository', { cards: 3, rows: 8 },
        html`<button @click=${() => emit(this, 'navigate', { view: 'overview' })}>Back to overview</button>`);
    }
    const d = l.data;
    const own = repositoryScope(d.repository.id);
    const scoped = this.scope === own;
    return html`
      <header>
        <button class="back" @click=${() => emit(this, 'navigate', { view: 'overview' })} aria-label="Back to overview">←</button>
        <h2 title=${d.repository.id}>${d.repository.name}</h2>
        ${rangeText(d.range)}
        <span class="spacer"></span>
        <button class="scope" aria-pressed=${scoped} @click=${() => emit(this, 'scope', scoped ? { project: null } : { project: own, name: d.repository.name })}
          title="Limit the overview and insights to this repository's folders">${scoped ? 'Clear scope' : 'Scope to repository'}</button>
        ${exportJsonButton(exportName(`repository-${d.repository.name}`, d.range, 'json'), d)}
      </header>
      ${viewBody(this._data.stale, this._body(d))}
    `;
  }

  static override styles = [viewStyles, css`.panel { margin-bottom: 16px; } .grid .panel { margin-bottom: 0; }`];
}

customElements.define('cost-repository-view', CostRepositoryView);

declare global {
  interface HTMLElementTagNameMap {
    'cost-repository-view': CostRepositoryView;
  }
}
