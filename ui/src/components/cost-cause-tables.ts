import { LitElement, css, html, nothing } from 'lit';
import type { CauseBreakdowns, CauseCost } from '../../../src/shared/api-types.ts';
import { formatInt, formatPercent, formatTokens, formatUsd } from '../format.ts';
import type { Column } from './cost-table.ts';
import { viewStyles } from './view-kit.ts';
import './cost-table.ts';

/** A row of a cause table: its key among the table's rows, and an MCP server's tools under it. */
interface CauseRow extends CauseCost {
  key: string;
  label: string;
  tools: CauseRow[];
}

/** One table per kind of cause: what it is called, its rows' label when a line names none, and its rows. */
interface Kind {
  id: 'skill' | 'mcp' | 'agent' | 'effort';
  caption: string;
  /** The kind in running text. */
  noun: string;
  none: string;
  hint: string;
  rows: (d: CauseBreakdowns) => readonly (CauseCost & { tools?: CauseCost[] })[];
}

const KINDS: readonly Kind[] = [
  { id: 'skill', caption: 'Skill', noun: 'skill', none: 'direct', hint: 'The skill Claude Code attributed each response to (attributionSkill); direct: none', rows: (d) => d.bySkill },
  { id: 'mcp', caption: 'MCP server', noun: 'MCP server', none: 'direct', hint: 'The MCP server, and its tool, each response was for (attributionMcpServer, attributionMcpTool); direct: none', rows: (d) => d.byMcpServer },
  { id: 'agent', caption: 'Subagent type', noun: 'subagent type', none: 'direct', hint: 'The subagent type that made each response (attributionAgent); direct: the main thread or no attribution', rows: (d) => d.byAgent },
  { id: 'effort', caption: 'Effort', noun: 'effort', none: 'not given', hint: 'The effort level of each response (low … xhigh, ultracode); not given: lines without one', rows: (d) => d.byEffort },
];

/** `a`, `a and b`, `a, b and c`. */
const listOf = (words: readonly string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

function rowsOf(kind: Kind, d: CauseBreakdowns): CauseRow[] {
  return kind.rows(d).map((r) => ({
    ...r, key: `c:${r.name ?? ''}`, label: r.name ?? kind.none,
    tools: (r.tools ?? []).map((t) => ({ ...t, key: `t:${r.name ?? ''}\n${t.name ?? ''}`, label: t.name ?? '(server only)', tools: [] })),
  }));
}

/**
 * A share of the range's cost: a bar of up to 48 px and the percentage. The cell is drawn in the table's shadow root,
 * where this element's styles do not reach: the bar is styled inline.
 */
const shareCell = (share: number) =>
  html`<span class="share-bar" style=${`display:inline-block;vertical-align:middle;height:6px;margin-right:6px;border-radius:3px;background:var(--accent);width:${Math.round(Math.max(0, Math.min(1, share)) * 48)}px`}></span>${formatPercent(share)}`;

/**
 * Cost by what caused it (/api/insights' bySkill, byMcpServer with its tools, byAgent, byEffort): a table per kind,
 * each row with its share of the range's cost, the dearest first; "direct" rows are the usage no cause was named for.
 */
export class CostCauseTables extends LitElement {
  static override properties = {
    data: { attribute: false },
    view: {},
  };

  declare data: CauseBreakdowns | null;
  /** The view the tables are in (insights, project): their sort is kept per view. */
  declare view: string;

  constructor() {
    super();
    this.data = null;
    this.view = 'insights';
  }

  private _columns(kind: Kind, total: number): Column<CauseRow>[] {
    return [
      { key: 'name', label: kind.caption, value: (r) => r.label, title: kind.hint,
        render: (r) => html`<span class=${r.name === null ? 'tag none' : 'primary name'} title=${r.label}>${r.label}</span>` },
      { key: 'cost', label: 'Cost', numeric: true, value: (r) => r.cost, render: (r) => html`<b>${formatUsd(r.cost)}</b>` },
      { key: 'share', label: 'Share', numeric: true, value: (r) => (total > 0 ? r.cost / total : 0), title: 'Share of the range\'s cost',
        render: (r) => shareCell(total > 0 ? r.cost / total : 0) },
      { key: 'messages', label: 'Messages', numeric: true, value: (r) => r.messages, render: (r) => formatInt(r.messages) },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (r) => r.totalTokens, render: (r) => formatTokens(r.totalTokens),
        title: 'Input, output, cache write and cache read tokens' },
    ];
  }

  override render() {
    const d = this.data;
    if (!d || !d.bySkill.length) return nothing;
    // Each breakdown holds every entry of the range once: any of them sums to the range's cost.
    const total = d.bySkill.reduce((s, r) => s + r.cost, 0);
    // A kind whose only row is "direct" says nothing a table would: it is named in one line instead (older Claude Code
    // versions write no attribution, so a whole history can be direct).
    const named = KINDS.filter((kind) => kind.rows(d).some((r) => r.name !== null));
    const direct = KINDS.filter((kind) => !named.includes(kind));
    return html`<section class="panel">
      <h3 title="Claude Code's own attribution of each response, as its /usage shows it">What caused the cost</h3>
      ${named.length
        ? html`<div class="tables">
            ${named.map((kind) => html`<div class="cause" data-cause=${kind.id}>
              <cost-table view=${`${this.view}-cause-${kind.id}`} caption=${kind.caption} .columns=${this._columns(kind, total)} .rows=${rowsOf(kind, d)}
                .rowKey=${(r: CauseRow) => r.key} .childrenOf=${(r: CauseRow) => r.tools} .defaultSort=${{ key: 'cost', dir: 'desc' }}
                page-size="10"></cost-table>
            </div>`)}
          </div>`
        : nothing}
      ${direct.length
        ? html`<p class="all-direct" data-direct=${direct.map((k) => k.id).join(' ')}>
            ${named.length
              ? html`All direct by ${listOf(direct.map((k) => k.noun))}: no response in this range names one.`
              : html`All direct: no response in this range is attributed to a skill, an MCP server or a subagent type, or
                  gives an effort. Claude Code's newer versions write these with each response.`}
          </p>`
        : nothing}
    </section>`;
  }

  static override styles = [
    viewStyles,
    css`
      .panel { margin-bottom: 16px; }
      .all-direct { margin: 8px 0 0; color: var(--ink-2); }
      .tables { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px; }
      @media (max-width: 900px) { .tables { grid-template-columns: minmax(0, 1fr); } }
    `,
  ];
}

customElements.define('cost-cause-tables', CostCauseTables);

declare global {
  interface HTMLElementTagNameMap {
    'cost-cause-tables': CostCauseTables;
  }
}
