import { css, html, nothing } from 'lit';
import type { Budgets, BudgetStatus } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { alertKey, alertText, BUDGETS_CHANGED, isAlert, snoozePath } from '../budgets.ts';
import { ViewData } from './view-kit.ts';
import type { CostBudgetDialog } from './cost-budget-dialog.ts';
import './cost-budget-dialog.ts';
import { ScopedView } from './data-view.ts';

const PERIOD_END: Record<BudgetStatus['period'], string> = { daily: 'tomorrow', weekly: 'next week', monthly: 'next month' };

/** Desktop notifications sent by this page, one per budget and period (the tag also makes the system keep one). */
const notified = new Set<string>();

/**
 * The budget alerts, on every view: a banner line for each budget projected to pass at today's pace, or passed, with
 * a way to the budgets and, where the browser offers them and nobody decided yet, an opt-in to desktop notifications.
 * The opt-in is the browser's own permission (nothing is stored by the page); once granted, each alert is notified once.
 * A line can be snoozed until its period ends: kept in the index, so a reload does not bring it back. Under a hub this banner is the alert: Hub App Protocol v1 has no
 * message for an app to mark its tab.
 */
export class CostBudgetAlerts extends ScopedView {
  static override properties = {
    _dismissed: { state: true },
    _permission: { state: true },
  };

  private declare _dismissed: ReadonlySet<string>;
  private declare _permission: NotificationPermission | 'unsupported';

  constructor() {
    super();
    this._dismissed = new Set();
    this._permission = typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
  }

  private _data = new ViewData(this, {
    args: () => [] as const,
    refreshKey: () => this.refreshKey,
    load: async (_args, signal): Promise<Budgets> => {
      const budgets = await api.get<Budgets>('/api/budgets', {}, signal);
      this.notify(budgets.budgets.filter((b) => isAlert(b) && !b.snoozed));
      return budgets;
    },
  });

  private notify(alerts: BudgetStatus[]): void {
    if (this._permission !== 'granted') return;
    for (const b of alerts) {
      const tag = alertKey(b);
      if (notified.has(tag)) continue;
      notified.add(tag);
      new Notification('Cost: budget alert', { body: alertText(b), tag });
    }
  }

  private async optIn(): Promise<void> {
    this._permission = await Notification.requestPermission();
    const alerts = this._data.loaded?.data.budgets.filter((b) => isAlert(b) && !b.snoozed) ?? [];
    this.notify(alerts);
  }

  /** Snoozed in the index; where it cannot be written (a read-only server), hidden for this page's life instead. */
  private async snooze(b: BudgetStatus): Promise<void> {
    this._dismissed = new Set([...this._dismissed, alertKey(b)]);
    try {
      await api.send('POST', snoozePath(b));
      this.dispatchEvent(new CustomEvent(BUDGETS_CHANGED, { bubbles: true, composed: true }));
    } catch {
      // the line is hidden already; the server said why in its answer, which the shell does not toast for a POST
    }
    // The banner's next focus stop, not the body: the button that had it is gone.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('.snooze, .budgets')?.focus();
  }

  private openBudgets(): void {
    const dialog = this.renderRoot.querySelector<CostBudgetDialog>('cost-budget-dialog');
    if (!dialog) return;
    dialog.scope = this.scope;
    void dialog.open();
  }

  override render() {
    const alerts = (this._data.loaded?.data.budgets ?? []).filter((b) => isAlert(b) && !b.snoozed && !this._dismissed.has(alertKey(b)));
    return html`${alerts.length
        ? html`<section class="banner" role="alert" aria-label="Budget alerts">
            <ul>${alerts.map((b) => html`<li data-key=${alertKey(b)} class=${b.use > b.amount ? 'over' : 'pace'}><span class="mark" aria-hidden="true">!</span>
              <span class="text">${alertText(b)}</span>
              <button type="button" class="snooze" aria-label=${`Snooze until the ${PERIOD_END[b.period]}: ${alertText(b)}`}
                title=${`Hide this alert until the ${PERIOD_END[b.period]} (${b.to}); kept in the index`}
                @click=${() => void this.snooze(b)}>Snooze until ${PERIOD_END[b.period]}</button></li>`)}</ul>
            <div class="actions">
              <button type="button" class="budgets" @click=${() => this.openBudgets()}>Budgets…</button>
              ${this._permission === 'default'
                ? html`<button type="button" class="notify" @click=${() => void this.optIn()}
                    title="Ask the browser to show budget alerts as desktop notifications">Desktop notifications</button>`
                : nothing}
            </div>
          </section>`
        : nothing}
      <cost-budget-dialog></cost-budget-dialog>`;
  }

  static override styles = css`
    :host { display: block; }
    .banner { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between; margin-bottom: 14px;
      padding: 8px 12px; border: 1px solid var(--error); border-radius: 8px; background: var(--bg-elevated); color: var(--ink-1); font-size: 13px; }
    ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
    li { display: flex; gap: 8px; align-items: center; }
    .text { flex: 1 1 auto; }
    .mark { display: inline-grid; place-items: center; flex: none; width: 16px; height: 16px; border-radius: 50%; font-size: 11px; font-weight: 700;
      color: var(--bg-elevated); background: var(--error); }
    .pace .mark { background: var(--warning); }
    .actions { display: flex; gap: 8px; }
    button { font: inherit; font-size: 12px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--border); border-radius: 6px;
      padding: 3px 9px; cursor: pointer; }
    button:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
  `;
}

customElements.define('cost-budget-alerts', CostBudgetAlerts);

declare global {
  interface HTMLElementTagNameMap {
    'cost-budget-alerts': CostBudgetAlerts;
  }
}
