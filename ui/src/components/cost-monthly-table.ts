import { css, html, nothing } from 'lit';
import type { Monthly } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { scopeParams } from '../state.ts';
import { exportName } from '../export.ts';
import { formatInt, formatLongBucket, formatPercent, formatTokens, formatUsd, shortModel } from '../format.ts';
import type { Column } from './cost-table.ts';
import { ViewData } from './view-kit.ts';
import './cost-table.ts';
import { ScopedView } from './data-view.ts';
import { changeLabel, withChange, withGaps, type Month } from '../monthly-rows.ts';

/**
 * Every month of the history (all projects or the scoped one), months without usage included: cost, tokens, top model,
 * change. Exportable.
 */
export class CostMonthlyTable extends ScopedView {
  private _data = new ViewData(this, {
    args: () => [this.scope] as const,
    refreshKey: () => this.refreshKey,
    load: ([scope], signal) => api.get<Monthly>('/api/monthly', scopeParams(scope), signal),
  });

  private _columns(): Column<Month>[] {
    return [
      { key: 'month', label: 'Month', value: (m) => m.month, render: (m) => formatLongBucket(m.month, 'month') },
      { key: 'cost', label: 'Cost', numeric: true, value: (m) => m.cost, render: (m) => html`<b>${formatUsd(m.cost)}</b>` },
      { key: 'tokens', label: 'Tokens', numeric: true, value: (m) => m.totalTokens, render: (m) => formatTokens(m.totalTokens) },
      { key: 'messages', label: 'Messages', numeric: true, value: (m) => m.messages, render: (m) => formatInt(m.messages) },
      { key: 'top', label: 'Top model', value: (m) => m.topModel, render: (m) => (m.topModel ? html`<span title=${m.topModel}>${shortModel(m.topModel)}</span>` : '—') },
      { key: 'change', label: 'Change', numeric: true, value: (m) => m.change, title: 'Cost against the calendar month before',
        render: (m) => html`<span title=${m.change === null ? 'No usage the month before' : `${m.change >= 0 ? '+' : '−'}${formatPercent(Math.abs(m.change), 0)} against the month before`}>${changeLabel(m)}</span>` },
    ];
  }

  override render() {
    const d = this._data.loaded?.data;
    if (!d || !d.months.length) return nothing;
    const rows = withChange(withGaps(d.months));
    return html`<section class="panel">
      <cost-table view="monthly" caption="Months" .columns=${this._columns()} .rows=${rows} .rowKey=${(m: Month) => m.month}
        .defaultSort=${{ key: 'month', dir: 'desc' }}
        export-file=${exportName('monthly', { from: rows.at(-1)!.month, to: rows[0]!.month }, 'csv').replace(/\.csv$/, '')}></cost-table>
    </section>`;
  }

  static override styles = css`
    :host { display: block; margin-top: 16px; }
    .panel { background: var(--bg-surface); border: 1px solid var(--border); border-radius: 10px; padding: 14px 16px; min-width: 0; }
  `;
}

customElements.define('cost-monthly-table', CostMonthlyTable);

declare global {
  interface HTMLElementTagNameMap {
    'cost-monthly-table': CostMonthlyTable;
  }
}
