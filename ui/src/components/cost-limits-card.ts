import { css, html, nothing } from 'lit';
import type { Insights, LimitsData, LimitWindow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { formatTime } from '../format.ts';
import { pct, toneOf } from '../limits.ts';
import { ViewData } from './view-kit.ts';
import { ScopedView } from './data-view.ts';
import './cost-stat-card.ts';

interface CardData {
  limits: LimitsData;
  block: Insights['activeBlock'];
}

/**
 * The plan limits in the at-a-glance strip: the 5-hour window's last reading with its projection at the reset, the
 * weekly one beside it; before any reading of a new block, the estimate of the share of the 5-hour limit the active
 * block uses at its pace (its projected API-equivalent cost over the estimated cost of 1 %).
 */
export class CostLimitsCard extends ScopedView {
  private _data = new ViewData(this, {
    args: () => [] as const,
    refreshKey: () => this.refreshKey,
    load: async (_args, signal): Promise<CardData> => {
      const [limits, today] = await Promise.all([
        api.get<LimitsData>('/api/limits', {}, signal),
        api.get<Insights>('/api/insights', { range: 'today' }, signal),
      ]);
      return { limits, block: today.activeBlock };
    },
  });

  private _estimate(five: LimitWindow | undefined, block: Insights['activeBlock']): string | null {
    const perPercent = five?.costPerPercent;
    const projected = block?.burn?.projectedCost;
    if (!perPercent || !projected) return null;
    return `~${Math.round(projected / perPercent)}%`;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) return nothing;
    const { limits, block } = l.data;
    // Never a reading (an API key, or the statusline not set up): no card, so the strip keeps its four; docs/limits.md
    // says how to turn it on.
    this.hidden = limits.windows.length === 0;
    if (this.hidden) return nothing;
    const five = limits.windows.find((w) => w.window === 'five_hour');
    const week = limits.windows.find((w) => w.window === 'seven_day');
    const weekText = week && !week.ended ? ` · weekly ${pct(week.usedPercent)}` : '';
    const hint = 'Official plan limit readings (the statusline, the plan usage probe). Projection: the used % at the reset at the recent pace.';
    if (five && !five.ended) {
      const proj = five.projectedPercent !== null ? `→ ${pct(five.projectedPercent)} at ` : 'resets ';
      return html`<cost-stat-card data-stat="glance-limits" label="5-hour limit" value=${pct(five.usedPercent)} tone=${toneOf(five)}
        sub=${`${proj}${formatTime(five.resetsAt)}${weekText}`} hint=${hint}></cost-stat-card>`;
    }
    const estimate = this._estimate(five, block);
    if (estimate) {
      return html`<cost-stat-card data-stat="glance-limits" label="5-hour limit (estimate)" value=${estimate}
        sub=${`at this pace this block uses ${estimate} of your 5-hour limit${weekText}`}
        hint="An estimate: the active block's projected API-equivalent cost over the cost of 1 % of the 5-hour window, measured where earlier readings and the index's costs overlap."></cost-stat-card>`;
    }
    return html`<cost-stat-card data-stat="glance-limits" label="Plan limits" value=${week && !week.ended ? pct(week.usedPercent) : '—'}
      sub=${week && !week.ended ? 'weekly, last reading' : 'No reading yet: use the statusline (docs/limits.md)'} hint=${hint}></cost-stat-card>`;
  }

  // The strip's other cards' height (cost-glance-strip.ts), so a card that changes its second line shifts nothing.
  static override styles = css`
    :host { display: block; min-width: 0; min-height: 124px; }
    :host([hidden]) { display: none; }
    cost-stat-card { height: 100%; }
  `;
}

customElements.define('cost-limits-card', CostLimitsCard);

declare global {
  interface HTMLElementTagNameMap {
    'cost-limits-card': CostLimitsCard;
  }
}
