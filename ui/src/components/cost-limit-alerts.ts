import { css, html, nothing } from 'lit';
import type { LimitAlert, LimitsData } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { limitAlertKey, limitAlertText } from '../limits.ts';
import { ViewData } from './view-kit.ts';
import { ScopedView } from './data-view.ts';

/** Desktop notifications sent by this page, one per window, kind and reset. */
const notified = new Set<string>();

/**
 * The plan limit alerts, on every view, as the budget banner: a line per window that passed a threshold (75 %, 90 %
 * by default) or will reach 100 % before its reset at the recent pace, and an opt-in to desktop notifications (the
 * browser's own permission). A dismissed line stays hidden for this page's life.
 */
export class CostLimitAlerts extends ScopedView {
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
    load: async (_args, signal): Promise<LimitsData> => {
      const limits = await api.get<LimitsData>('/api/limits', {}, signal);
      this.notify(limits.alerts);
      return limits;
    },
  });

  private notify(alerts: readonly LimitAlert[]): void {
    if (this._permission !== 'granted') return;
    for (const a of alerts) {
      const tag = limitAlertKey(a);
      if (notified.has(tag)) continue;
      notified.add(tag);
      new Notification('Cost: plan limit', { body: limitAlertText(a), tag });
    }
  }

  private async optIn(): Promise<void> {
    this._permission = await Notification.requestPermission();
    this.notify(this._data.loaded?.data.alerts ?? []);
  }

  override render() {
    const alerts = (this._data.loaded?.data.alerts ?? []).filter((a) => !this._dismissed.has(limitAlertKey(a)));
    if (!alerts.length) return nothing;
    return html`<section class="banner" role="alert" aria-label="Plan limit alerts">
      <ul>${alerts.map((a) => html`<li data-key=${limitAlertKey(a)}><span class="mark" aria-hidden="true">!</span>
        <span class="text">${limitAlertText(a)}</span>
        <button type="button" class="dismiss" aria-label=${`Dismiss: ${limitAlertText(a)}`}
          @click=${() => (this._dismissed = new Set([...this._dismissed, limitAlertKey(a)]))}>Dismiss</button></li>`)}</ul>
      ${this._permission === 'default'
        ? html`<div class="actions"><button type="button" class="notify" @click=${() => void this.optIn()}
            title="Ask the browser to show plan limit alerts as desktop notifications">Desktop notifications</button></div>`
        : nothing}
    </section>`;
  }

  static override styles = css`
    :host { display: block; }
    .banner { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between; margin-bottom: 14px;
      padding: 8px 12px; border: 1px solid var(--warning); border-radius: 8px; background: var(--bg-elevated); color: var(--ink-1); font-size: 13px; }
    ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
    li { display: flex; gap: 8px; align-items: center; }
    .text { flex: 1 1 auto; }
    .mark { display: inline-grid; place-items: center; flex: none; width: 16px; height: 16px; border-radius: 50%; font-size: 11px; font-weight: 700;
      color: var(--bg-elevated); background: var(--warning); }
    .actions { display: flex; gap: 8px; }
    button { font: inherit; font-size: 12px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--border); border-radius: 6px;
      padding: 3px 9px; cursor: pointer; }
    button:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
  `;
}

customElements.define('cost-limit-alerts', CostLimitAlerts);

declare global {
  interface HTMLElementTagNameMap {
    'cost-limit-alerts': CostLimitAlerts;
  }
}
