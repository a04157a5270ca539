import { css, html, nothing } from 'lit';
import type { SessionDetail, SessionMessage, Totals, WorkflowRun } from '../../../src/shared/api-types.ts';
import { api, HttpError } from '../api.ts';
import { rangeParams } from '../state.ts';
import { formatCount, formatDateTime, formatDuration, formatInt, formatTokens, formatUsd, shortModel } from '../format.ts';
import { exportName } from '../export.ts';
import { LONG_LIST_PAGE, type Column } from './cost-table.ts';
import type { CumulativePoint } from './cost-cumulative-chart.ts';
import { DataView } from './data-view.ts';
import { ViewData, emit, exportJsonButton, viewBody, viewStyles } from './view-kit.ts';
import './cost-cumulative-chart.ts';
import './cost-stat-card.ts';
import './cost-empty.ts';
import { receiptButton } from './cost-receipt-dialog.ts';

interface Loaded {
  data: SessionDetail;
  /** Messages in time order with their running total. */
  rows: MessageRow[];
}

interface MessageRow extends SessionMessage {
  i: number;
  t: number;
  total: number;
}

type Subagent = SessionDetail['subagents'][number];

const isMissing = (e: Error | null): boolean => e instanceof HttpError && e.status === 404;

function withRunningTotals(messages: SessionMessage[]): MessageRow[] {
  let total = 0;
  return messages
    .map((m) => ({ m, t: Date.parse(m.timestamp) }))
    .sort((a, b) => a.t - b.t)
    .map(({ m, t }, i) => ({ ...m, i, t, total: (total += m.cost) }));
}

/**
 * One session over all time: totals with the in-range and today slices, the cumulative cost curve,
 * every message with its tokens and running total, the plain subagents and the workflow runs. A session belongs to one project, so the scope
 * does not apply to it.
 *
 * @fires navigate - `{view: 'project', project}` from the project link.
 */
export class CostSessionView extends DataView {
  static override properties = {
    session: {},
  };

  declare session: string;

  constructor() {
    super();
    this.session = '';
  }

  private _data = new ViewData(this, {
    args: () => [this.range, this.session] as const,
    refreshKey: () => this.refreshKey,
    load: async ([range, session], signal): Promise<Loaded> => {
      const data = await api.get<SessionDetail>(`/api/sessions/${encodeURIComponent(session)}`, rangeParams(range), signal);
      return { data, rows: withRunningTotals(data.messages) };
    },
    drops: isMissing,
  });

  private _columns(): Column<MessageRow>[] {
    return [
      { key: 'time', label: 'Time', value: (m) => m.t, render: (m) => formatDateTime(m.timestamp) },
      { key: 'model', label: 'Model', value: (m) => m.model,
        render: (m) => html`<span title=${m.model}>${shortModel(m.model)}</span>${m.fast ? html` <span class="tag" title="Fast mode: priced with the model's fast multiplier">fast</span>` : nothing}${m.subagent ? html` <span class="tag sub" title=${`Subagent ${m.subagent.agentId}`}>${m.subagent.agentType ?? 'subagent'}</span>` : nothing}` },
      { key: 'input', label: 'Input', numeric: true, value: (m) => m.inputTokens, render: (m) => formatInt(m.inputTokens) },
      { key: 'output', label: 'Output', numeric: true, value: (m) => m.outputTokens, render: (m) => formatInt(m.outputTokens) },
      { key: 'cacheWrite', label: 'Cache write', numeric: true, value: (m) => m.cacheCreationTokens, render: (m) => formatInt(m.cacheCreationTokens),
        title: 'Tokens written to the prompt cache (5-minute and 1-hour)' },
      { key: 'cacheRead', label: 'Cache read', numeric: true, value: (m) => m.cacheReadTokens, render: (m) => formatInt(m.cacheReadTokens) },
      { key: 'cost', label: 'Cost', numeric: true, value: (m) => m.cost, render: (m) => html`<b>${formatUsd(m.cost)}</b>` },
      { key: 'total', label: 'Running total', numeric: true, value: (m) => m.total, render: (m) => formatUsd(m.total), title: 'Cost of the session up to and including this message, in time order' },
      { key: 'tools', label: 'Tools', value: (m) => m.tools.join(' '), render: (m) => html`<span title=${m.tools.join('\n')}>${m.tools.join(', ') || '—'}</span>` },
      { key: 'agent', label: 'Subagent', value: (m) => (m.subagent ? (m.subagent.agentType ?? m.subagent.agentId) : null) },
    ];
  }

  private _subColumns(): Column<Subagent>[] {
    return [
      { key: 'type', label: 'Type', value: (s) => s.agentType ?? 'subagent' },
      { key: 'description', label: 'Description', value: (s) => s.description, render: (s) => html`<span title=${s.description ?? ''}>${s.description ?? '—'}</span>` },
      { key: 'messages', label: 'Messages', numeric: true, value: (s) => s.messages, render: (s) => formatInt(s.messages) },
      { key: 'cost', label: 'Cost', numeric: true, value: (s) => s.cost, render: (s) => html`<b>${formatUsd(s.cost)}</b>` },
      { key: 'id', label: 'Agent id', value: (s) => s.agentId },
    ];
  }

  private _runColumns(): Column<WorkflowRun>[] {
    return [
      { key: 'run', label: 'Workflow run', value: (r) => r.runId },
      { key: 'agents', label: 'Agents', numeric: true, value: (r) => r.agents, render: (r) => formatInt(r.agents),
        title: 'Agent transcripts of the run, those still empty included' },
      { key: 'messages', label: 'Messages', numeric: true, value: (r) => r.messages, render: (r) => formatInt(r.messages) },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (r) => r.totalTokens, render: (r) => formatTokens(r.totalTokens),
        title: 'Input, output, cache write and cache read tokens of the run\'s agents' },
      { key: 'cost', label: 'Cost', numeric: true, value: (r) => r.cost, render: (r) => html`<b>${formatUsd(r.cost)}</b>` },
      { key: 'first', label: 'First', value: (r) => r.firstActivity, render: (r) => formatDateTime(r.firstActivity) },
      { key: 'last', label: 'Last', value: (r) => r.lastActivity, render: (r) => formatDateTime(r.lastActivity) },
    ];
  }

  private _slice(name: string, stat: string, t: Totals | null, none: string, hint: string, extra: unknown = nothing) {
    return html`<cost-stat-card data-stat=${stat} label=${name} value=${t ? formatUsd(t.cost) : '—'}
      sub=${t ? `${formatCount(t.messages, 'message')} · ${formatTokens(t.totalTokens)} tokens` : none} hint=${hint}>${extra}</cost-stat-card>`;
  }

  private _body(l: Loaded) {
    const d = l.data;
    const duration = d.firstActivity && d.lastActivity ? Date.parse(d.lastActivity) - Date.parse(d.firstActivity) : 0;
    const points: CumulativePoint[] = l.rows.map((m) => ({ t: m.t, cost: m.cost, total: m.total,
      note: `${shortModel(m.model)}${m.subagent ? ` · ${m.subagent.agentType ?? 'subagent'}` : ''}` }));
    return html`
      <div class="cards">
        <cost-stat-card data-stat="total" label="All time" value=${formatUsd(d.cost)} sub=${`${formatCount(d.messageCount, 'message')} · ${formatTokens(d.totalTokens)} tokens`}
          hint=${`The whole session, whatever the range: input ${formatInt(d.inputTokens)}, output ${formatInt(d.outputTokens)}, cache write ${formatInt(d.cacheCreationTokens)}, cache read ${formatInt(d.cacheReadTokens)}.`}>
          ${receiptButton("the session's cost", () => ({ range: 'all', session: d.id }))}</cost-stat-card>
        ${this._slice('In range', 'in-range', d.inRange, 'No usage in the selected range', 'The part of this session inside the selected range.',
          d.inRange ? receiptButton("the session's cost in the range", () => ({ ...rangeParams(this.range), session: d.id })) : nothing)}
        ${this._slice('Today', 'today', d.today, 'No usage today', 'The part of this session since local midnight.')}
        <cost-stat-card data-stat="duration" label="Duration" value=${formatDuration(duration)} sub=${`${formatDateTime(d.firstActivity)} → ${formatDateTime(d.lastActivity)}`}
          hint="From the first to the last usage entry of the session."></cost-stat-card>
      </div>
      <section class="panel">
        <h3>Cumulative cost</h3>
        <cost-cumulative-chart .points=${points} label="Cumulative session cost"></cost-cumulative-chart>
      </section>
      ${d.subagents.length
        ? html`<section class="panel">
            <cost-table view="detail-subagents" caption="Subagents" .columns=${this._subColumns()} .rows=${d.subagents} .rowKey=${(s: Subagent) => s.agentId}
              .defaultSort=${{ key: 'cost', dir: 'desc' }} export-file=${`cost-subagents-${d.id}`}></cost-table>
          </section>`
        : nothing}
      ${d.workflows.length
        ? html`<section class="panel">
            <cost-table view="detail-workflows" caption="Workflow runs" .columns=${this._runColumns()} .rows=${d.workflows} .rowKey=${(r: WorkflowRun) => r.runId}
              .defaultSort=${{ key: 'first', dir: 'asc' }} export-file=${`cost-workflows-${d.id}`}></cost-table>
          </section>`
        : nothing}
      <section class="panel">
        <cost-table view="detail" caption="Messages" page-size=${LONG_LIST_PAGE} .columns=${this._columns()} .rows=${l.rows} .rowKey=${(m: MessageRow) => String(m.i)}
          .defaultSort=${{ key: 'time', dir: 'asc' }} .rowClass=${(m: MessageRow) => (m.subagent ? 'sub' : '')} export-file=${`cost-messages-${d.id}`}></cost-table>
      </section>
    `;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) {
      if (isMissing(this._data.error)) {
        return html`<cost-empty heading="Session not found" message=${`No session with id ${this.session} is in the index. It may belong to another config dir.`}></cost-empty>`;
      }
      return this._data.placeholder('Could not load the session', { cards: 4, rows: 10 });
    }
    const d = l.data.data;
    return html`
      <header>
        <button class="back" aria-label=${`Back to ${d.project.name}`} title=${`Back to ${d.project.name}`}
          @click=${() => emit(this, 'navigate', { view: 'project', project: d.project.id })}>←</button>
        <div class="titles">
          <h2 class="clamp" tabindex="0" title=${`${d.firstPrompt ?? d.title}\n${d.id}`}>${d.title}</h2>
          <div class="meta"><span>${d.project.name}</span>${d.cwd ? html`<span title="Working directory">${d.cwd}</span>` : nothing}<span>${d.id}</span></div>
        </div>
        ${exportJsonButton(exportName(`session-${d.id}`, d.range, 'json'), d)}
      </header>
      ${d.firstPrompt && d.firstPrompt !== d.title ? html`<details><summary>First prompt</summary><p>${d.firstPrompt}</p></details>` : nothing}
      ${viewBody(this._data.stale, this._body(l.data))}
    `;
  }

  static override styles = [
    viewStyles,
    css`
      header { align-items: flex-start; flex-wrap: nowrap; }
      .titles { flex: 1; min-width: 0; }
      /* A title can be a whole first prompt: two lines, all of it in the tooltip and while focused. */
      h2.clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
      h2.clamp:focus { -webkit-line-clamp: unset; }
      h2.clamp:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
      .meta { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: var(--ink-3); margin-top: 4px; }
      summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
      details { font-size: 13px; color: var(--ink-2); margin-bottom: 14px; }
      details p { white-space: pre-wrap; max-height: 200px; overflow: auto; background: var(--bg-elevated); padding: 8px 10px; border-radius: 6px; }
      summary { cursor: pointer; color: var(--ink-3); }
      .panel { margin-bottom: 16px; }
      cost-table { --table-max-height: 70vh; }
    `,
  ];
}

customElements.define('cost-session-view', CostSessionView);

declare global {
  interface HTMLElementTagNameMap {
    'cost-session-view': CostSessionView;
  }
}
