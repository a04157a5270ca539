import { LitElement, css, html, nothing } from 'lit';
import type { LimitsData, PlanKind } from '../../../src/shared/api-types.ts';
import { api, isAbort } from '../api.ts';
import { BUDGETS_CHANGED } from '../budgets.ts';
import { emit } from './view-kit.ts';

/** The plans, with the usual monthly price as the starting value (the user pays what they pay: it is editable). */
export const PLANS: readonly { kind: PlanKind; label: string; price: number }[] = [
  { kind: 'api', label: 'API / none', price: 0 },
  { kind: 'pro', label: 'Pro', price: 20 },
  { kind: 'max5', label: 'Max 5×', price: 100 },
  { kind: 'max20', label: 'Max 20×', price: 200 },
  { kind: 'team', label: 'Team', price: 30 },
  { kind: 'enterprise', label: 'Enterprise', price: 0 },
];

/**
 * In the budgets dialog: the plan this machine's user pays for (its monthly price editable), which the overview shows
 * beside the API-equivalent cost of the month, and the used % at which a plan limit window alerts. Kept in the index by
 * the server (POST /api/limits/settings); a server that only reads the index shows them and says where to change them.
 */
export class CostLimitSettings extends LitElement {
  static override properties = {
    writable: { type: Boolean },
    _limits: { state: true },
    _error: { state: true },
    _saved: { state: true },
  };

  declare writable: boolean;
  private declare _limits: LimitsData | null;
  private declare _error: string;
  private declare _saved: boolean;

  constructor() {
    super();
    this.writable = false;
    this._limits = null;
    this._error = '';
    this._saved = false;
  }

  async load(): Promise<void> {
    try {
      this._limits = await api.get<LimitsData>('/api/limits', {}, undefined, { force: true });
      this._saved = false;
    } catch (err) {
      if (!isAbort(err)) this._error = (err as Error).message;
    }
  }

  private async save(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const kind = String(form.get('plan'));
    const thresholds = String(form.get('thresholds')).split(',').map((s) => s.trim()).filter(Boolean).map(Number);
    const plan = kind === '' ? null : { plan: kind as PlanKind, monthlyPrice: Number(form.get('price')) };
    this._error = '';
    try {
      this._limits = await api.send<LimitsData>('POST', '/api/limits/settings', { plan, thresholds });
      this._saved = true;
      api.invalidate();
      emit(this, BUDGETS_CHANGED);
    } catch (err) {
      this._error = (err as Error).message;
    }
  }

  /** A new plan choice starts from its usual price. */
  private pick(e: Event): void {
    const price = PLANS.find((p) => p.kind === (e.target as HTMLSelectElement).value)?.price;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="price"]');
    if (input && price !== undefined) input.value = String(price);
  }

  override render() {
    const l = this._limits;
    if (!l) return nothing;
    if (!this.writable) {
      const plan = l.plan ? `${PLANS.find((p) => p.kind === l.plan!.plan)?.label ?? l.plan.plan} at $${l.plan.monthlyPrice}/month` : 'not set';
      return html`<section class="read-only" aria-labelledby="plan-h"><h3 id="plan-h">Plan and limit alerts</h3>
        <p class="status">Plan: ${plan}; limit alerts at ${l.thresholds.join(', ')} % used. Change them in the dashboard that writes this index.</p></section>`;
    }
    return html`<form @submit=${(e: SubmitEvent) => void this.save(e)} aria-labelledby="plan-h">
      <h3 id="plan-h">Plan and limit alerts</h3>
      <label>Plan
        <select name="plan" @change=${(e: Event) => this.pick(e)}>
          <option value="" ?selected=${l.plan === null}>Not set</option>
          ${PLANS.map((p) => html`<option value=${p.kind} ?selected=${l.plan?.plan === p.kind}>${p.label}</option>`)}
        </select></label>
      <label>Monthly price ($)
        <input name="price" type="number" min="0" step="any" .value=${String(l.plan?.monthlyPrice ?? 0)}></label>
      <label>Alert at (% used)
        <input name="thresholds" class="thresholds" .value=${l.thresholds.join(', ')}
          title="Comma-separated whole percents; an alert also comes when a window is forecast to reach 100 % before its reset"></label>
      <button type="submit" class="save-plan">Save</button>
      <p class="status" role="status">${this._error ? html`<span class="error">${this._error}</span>` : this._saved ? 'Saved' : ''}</p>
    </form>`;
  }

  static override styles = css`
    .read-only { margin-top: 16px; padding-top: 12px; border-top: 1px solid var(--border); }
    form { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; margin-top: 16px; padding-top: 12px; border-top: 1px solid var(--border); }
    h3 { flex: 1 0 100%; margin: 0; font-size: 14px; color: var(--ink-1); }
    label { display: grid; gap: 4px; font-size: 12px; color: var(--ink-2); }
    select, input { font: inherit; font-size: 13px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--border);
      border-radius: 6px; padding: 5px 8px; }
    input { width: 90px; }
    input.thresholds { width: 110px; }
    button { font: inherit; font-size: 13px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--accent);
      border-radius: 6px; padding: 5px 10px; cursor: pointer; }
    :is(button, select, input):focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    .status { flex: 1 0 100%; margin: 0; font-size: 13px; color: var(--ink-2); min-height: 1em; }
    .error { color: var(--error); }
  `;
}

customElements.define('cost-limit-settings', CostLimitSettings);

declare global {
  interface HTMLElementTagNameMap {
    'cost-limit-settings': CostLimitSettings;
  }
}
