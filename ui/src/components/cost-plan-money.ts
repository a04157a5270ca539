import { css, html, nothing } from 'lit';
import type { EntrypointCost, LimitsData, Overview } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { formatDateTime, formatUsd } from '../format.ts';
import { ViewData } from './view-kit.ts';
import { ScopedView } from './data-view.ts';
import { PLANS } from './cost-limit-settings.ts';
import './cost-stat-card.ts';

interface Money {
  limits: LimitsData;
  month: Overview;
}

/**
 * Real money apart from API-equivalent, for a subscriber (a plan set in the budgets dialog; nothing without one): the
 * plan's monthly price beside the API-equivalent cost of this month, the ratio, the usage credits the probe last
 * reported, which are paid apart, and this month's programmatic use (SDK, `claude -p`) apart from the interactive,
 * since it draws on its own credit at API prices. One card each.
 */
export class CostPlanMoney extends ScopedView {
  private _data = new ViewData(this, {
    args: () => [] as const,
    refreshKey: () => this.refreshKey,
    load: async (_args, signal): Promise<Money> => {
      const [limits, month] = await Promise.all([
        api.get<LimitsData>('/api/limits', {}, signal),
        api.get<Overview>('/api/overview', { range: 'month' }, signal),
      ]);
      return { limits, month };
    },
  });

  override render() {
    const m = this._data.loaded?.data;
    const plan = m?.limits.plan;
    if (!m || !plan || plan.plan === 'api') return nothing;
    const label = PLANS.find((p) => p.kind === plan.plan)?.label ?? plan.plan;
    const api = m.month.totals.cost;
    const ratio = plan.monthlyPrice > 0 ? api / plan.monthlyPrice : null;
    const credits = m.limits.credits;
    const programmatic = m.month.byEntrypoint.filter((e) => e.programmatic);
    const interactive = m.month.byEntrypoint.filter((e) => !e.programmatic);
    return html`<section class="money" aria-label="Real money and API-equivalent cost">
      <cost-stat-card data-stat="plan-price" label=${`${label} plan`} value=${`${formatUsd(plan.monthlyPrice)}/mo`}
        sub="what you pay (set in Budgets…)" hint="The plan's monthly price as set in the budgets dialog: real money."></cost-stat-card>
      <cost-stat-card data-stat="plan-api-equivalent" label="API-equivalent this month" value=${formatUsd(api)}
        sub=${ratio === null ? 'at API prices' : `${ratio.toFixed(1)}× the plan's price`}
        hint="What this month's usage would cost at API prices (the dashboard's other dollar figures): not what the plan costs you."></cost-stat-card>
      <cost-stat-card data-stat="plan-credits" label="Usage credits" value=${credits ? formatUsd(credits.amount) : '—'}
        sub=${credits ? `this month, as of ${formatDateTime(credits.observedAt)}` : 'none reported by the plan usage probe'}
        hint="Extra usage past the plan, paid apart: real money, from the plan usage probe's last answer."></cost-stat-card>
      <cost-stat-card data-stat="plan-programmatic" label="Programmatic use this month" value=${formatUsd(costOf(programmatic))}
        sub=${programmatic.length ? `${names(programmatic)} · at API prices` : 'none (SDK, claude -p)'}
        hint="Usage started by the Agent SDK or print mode (claude -p): drawn from its own monthly credit at API prices, not from the plan's limits."></cost-stat-card>
      <cost-stat-card data-stat="plan-interactive" label="Interactive use this month" value=${formatUsd(costOf(interactive))}
        sub=${interactive.length ? `${names(interactive)} · API-equivalent` : 'none'}
        hint="Usage from the terminal, the IDE and other interactive entrypoints, within the plan's limits: what it would cost at API prices."></cost-stat-card>
    </section>`;
  }

  static override styles = css`
    :host { display: block; }
    .money { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; margin-bottom: 16px; }
  `;
}

const costOf = (rows: readonly EntrypointCost[]): number => rows.reduce((sum, e) => sum + e.cost, 0);
/** The entrypoints' names, most expensive first ("unknown" for lines that name none). */
const names = (rows: readonly EntrypointCost[]): string => rows.map((e) => e.entrypoint ?? 'unknown').join(', ');

customElements.define('cost-plan-money', CostPlanMoney);

declare global {
  interface HTMLElementTagNameMap {
    'cost-plan-money': CostPlanMoney;
  }
}
