import { css, html, nothing } from 'lit';
import type { BudgetPeriod, Budgets, Insights, Overview, PeriodPace, UsageLimits } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { budgetOf } from '../budgets.ts';
import { soFar } from '../indexing.ts';
import { scopeParams } from '../state.ts';
import { formatCount, formatDuration, formatPercent, formatTime, formatTokens, formatUsd } from '../format.ts';
import { ViewData } from './view-kit.ts';
import type { CostBudgetDialog } from './cost-budget-dialog.ts';
import './cost-stat-card.ts';
import './cost-budget-meter.ts';
import './cost-budget-dialog.ts';
import './cost-limits-card.ts';
import { ScopedView } from './data-view.ts';

interface Glance {
  week: Overview;
  month: Overview;
  block: Insights['activeBlock'];
  /** Whether today's figures are final (the first index has read every transcript that may hold today). */
  todayFinal: boolean;
  /** The month's one projection, as its budget meter has it (GET /api/pace). */
  monthPace: PeriodPace | undefined;
  limits: UsageLimits | null;
  budgets: Budgets;
}

/**
 * The first questions, answered without a click: today, this week and this month so far (with the month end at the
 * current pace), the active 5-hour block, and the plan usage when the probe answered in the last 5 minutes.
 * Calendar periods are the server's (its TZ, weeks from Monday), whatever range the page shows.
 */
export class CostGlanceStrip extends ScopedView {
  private _data = new ViewData(this, {
    args: () => [this.scope] as const,
    refreshKey: () => this.refreshKey,
    load: async ([scope], signal): Promise<Glance> => {
      const p = scopeParams(scope);
      const [week, month, today, recent, budgets, pace] = await Promise.all([
        api.get<Overview>('/api/overview', { range: 'week', ...p }, signal),
        api.get<Overview>('/api/overview', { range: 'month', ...p }, signal),
        api.get<Insights>('/api/insights', { range: 'today', ...p }, signal),
        api.get<{ limits: UsageLimits | null }>('/api/usage-limits/recent', {}, signal),
        api.get<Budgets>('/api/budgets', {}, signal),
        api.get<PeriodPace[]>('/api/pace', p, signal),
      ]);
      return { week, month, block: today.activeBlock, todayFinal: today.final, limits: recent.limits, budgets, monthPace: pace.find((x) => x.period === 'monthly') };
    },
  });

  private _block(g: Glance) {
    const b = g.block;
    const burn = b?.burn;
    const binding = g.limits?.limitsApply ? g.limits.windows.find((w) => w.binding) ?? g.limits.windows[0] : undefined;
    const plan = binding ? ` · plan ${formatPercent(binding.percent / 100, 0)} (${binding.label})` : '';
    if (!b || !burn) {
      return html`<cost-stat-card data-stat="glance-block" label="5-hour block" value="—" sub=${`No active block${plan}`}
        hint="A block starts at its first entry floored to the hour and lasts 5 hours."></cost-stat-card>`;
    }
    return html`<cost-stat-card data-stat="glance-block" label="Active block" value=${`${formatDuration(burn.minutesLeft * 60_000)} left`}
      sub=${`${formatUsd(burn.costPerHour)}/h · ${formatUsd(burn.projectedCost)} projected${plan}`}
      hint=${`Block ${formatTime(b.start)}–${formatTime(b.end)}: ${formatUsd(b.cost)} so far. Projected: the block's cost per hour so far × 5 h.${binding ? ' Plan usage: the limiting window the plan usage probe reported in the last 5 minutes.' : ''}`}></cost-stat-card>`;
  }

  /** The card's budget for the page's scope, as a meter (none without one). */
  private _meter(g: Glance, period: BudgetPeriod) {
    const budget = budgetOf(g.budgets.budgets, period, this.scope);
    return budget ? html`<cost-budget-meter .budget=${budget}></cost-budget-meter>` : nothing;
  }

  private _openBudgets(): void {
    const dialog = this.renderRoot.querySelector<CostBudgetDialog>('cost-budget-dialog');
    if (!dialog) return;
    dialog.scope = this.scope;
    void dialog.open();
  }

  override render() {
    const l = this._data.loaded;
    if (!l) return nothing;
    const g = l.data;
    const projected = g.monthPace?.projected;
    const today = g.month.today;
    return html`<section class="strip" aria-label="At a glance">
      <cost-stat-card data-stat="glance-today" label=${soFar('Today', g.todayFinal)} value=${formatUsd(today?.cost ?? 0)}
        sub=${today ? `${formatCount(today.sessions, 'session')} · ${formatTokens(today.totalTokens)} tokens` : ''}
        hint="Cost since local midnight (the server's time zone).">${this._meter(g, 'daily')}</cost-stat-card>
      <cost-stat-card data-stat="glance-week" label=${soFar('This week', g.week.final)} value=${formatUsd(g.week.totals.cost)} sub=${`since Monday`}
        hint="Cost since Monday, local midnight.">${this._meter(g, 'weekly')}</cost-stat-card>
      <cost-stat-card data-stat="glance-month" label=${soFar('This month', g.month.final)} value=${formatUsd(g.month.totals.cost)}
        sub=${projected === undefined ? '' : `${formatUsd(projected)} by month end`}
        hint="Cost since the 1st. Month end: so far + a usual day (the average of the month's ended days, else of the last 7 days) for each day left, and for today the part of a usual day still ahead. The budget meters project the same way.">${this._meter(g, 'monthly')}</cost-stat-card>
      ${this._block(g)}
      <cost-limits-card .refreshKey=${this.refreshKey}></cost-limits-card>
    </section>
    <div class="tools"><button type="button" class="budgets" @click=${() => this._openBudgets()}
      title="Daily, weekly and monthly budgets of this machine">Budgets…</button></div>
    <cost-budget-dialog></cost-budget-dialog>`;
  }

  static override styles = css`
    :host { display: block; margin-bottom: 16px; }
    .strip { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; }
    /* Room for a two-line second line: a block that starts or ends on a refresh must not shift the page below. */
    cost-stat-card { min-height: 124px; }
    .tools { display: flex; justify-content: flex-end; margin-top: 6px; }
    .budgets { font: inherit; font-size: 12px; color: var(--ink-2); background: none; border: 1px solid var(--border); border-radius: 6px;
      padding: 3px 9px; cursor: pointer; }
    .budgets:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
  `;
}

customElements.define('cost-glance-strip', CostGlanceStrip);

declare global {
  interface HTMLElementTagNameMap {
    'cost-glance-strip': CostGlanceStrip;
  }
}
