import { LitElement, css, html, nothing } from 'lit';
import type { BudgetStatus } from '../../../src/shared/api-types.ts';
import { PERIOD_LABEL, stateText } from '../budgets.ts';
import { formatUsd } from '../format.ts';

/**
 * A budget's use as a meter under a strip card: the bar is the use, the tick the period's one projection, coloured
 * green (on track), amber (80 % projected: "On pace for $X" once past the amount) or red ("Over by $X": only money
 * spent). The state is also a word, never only a colour.
 */
export class CostBudgetMeter extends LitElement {
  static override properties = { budget: { attribute: false } };

  declare budget: BudgetStatus | undefined;

  override render() {
    const b = this.budget;
    if (!b) return nothing;
    const share = (n: number) => `${Math.min(100, (n / b.amount) * 100)}%`;
    const state = stateText(b);
    // "On pace for" already names the projection.
    const text = `${formatUsd(b.use)} of ${formatUsd(b.amount)}${b.projected > b.amount && b.use <= b.amount ? '' : ` · ${formatUsd(b.projected)} projected`}`;
    return html`<div class="meter" role="meter" aria-label=${`${PERIOD_LABEL[b.period]} budget`} aria-valuemin="0"
        aria-valuemax=${b.amount} aria-valuenow=${Math.min(b.use, b.amount)} aria-valuetext=${`${state}: ${text}`}
        title=${`${PERIOD_LABEL[b.period]} budget, ${b.from === b.to ? b.from : `${b.from} to ${b.to}`}. Projected: the use so far plus a usual day for each day left, and for today the part of a usual day still ahead.`}>
        <div class="track"><div class="fill" style=${`width: ${share(b.use)}`}></div><div class="tick" style=${`left: ${share(b.projected)}`}></div></div>
      </div>
      <div class="line"><span class="state">${state}</span> ${text}</div>`;
  }

  static override styles = css`
    :host { display: block; margin-top: 8px; --tone: var(--success); }
    :host([data-state='warn']) { --tone: var(--warning); }
    :host([data-state='over']) { --tone: var(--error); }
    .track { position: relative; height: 6px; border-radius: 3px; background: var(--bg-hover); border: 1px solid var(--border); }
    .fill { height: 100%; border-radius: 3px; background: var(--tone); }
    .tick { position: absolute; top: -3px; width: 2px; height: 12px; margin-left: -1px; background: var(--ink-1); }
    .line { font-size: 12px; color: var(--ink-2); margin-top: 4px; font-variant-numeric: tabular-nums; }
    .state { color: var(--tone); font-weight: 600; }
  `;

  override updated(): void {
    // The host carries the state so the tone variables cascade from it.
    if (this.budget) this.dataset.state = this.budget.state;
    else delete this.dataset.state;
  }
}

customElements.define('cost-budget-meter', CostBudgetMeter);

declare global {
  interface HTMLElementTagNameMap {
    'cost-budget-meter': CostBudgetMeter;
  }
}
