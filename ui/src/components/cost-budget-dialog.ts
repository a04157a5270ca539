import { LitElement, css, html, nothing } from 'lit';
import type { BudgetPeriod, Budgets, BudgetStatus, ProjectRow } from '../../../src/shared/api-types.ts';
import { api, isAbort } from '../api.ts';
import { BUDGETS_CHANGED, PERIOD_LABEL, PERIODS, stateText, whoseText } from '../budgets.ts';
import { formatUsd } from '../format.ts';
import { scopeRepository } from '../state.ts';
import { emit } from './view-kit.ts';
import './cost-limit-settings.ts';

interface Loaded {
  budgets: Budgets;
  projects: ProjectRow[];
}

/**
 * Budgets of this machine (kept in the index file by the server): the list with each one's use and a Remove button,
 * and a form to set one (period, every project or one, dollars). A native modal dialog: Tab moves through it, Escape
 * closes it. The server's message shows when it refuses a value, or when it only reads an index another process writes.
 */
export class CostBudgetDialog extends LitElement {
  static override properties = {
    scope: { attribute: false },
    _loaded: { state: true },
    _error: { state: true },
    _busy: { state: true },
  };

  /** The page's scope: a project scope is the form's first choice. */
  declare scope: string | null;
  private declare _loaded: Loaded | null;
  private declare _error: string;
  private declare _busy: boolean;

  constructor() {
    super();
    this.scope = null;
    this._loaded = null;
    this._error = '';
    this._busy = false;
  }

  get isOpen(): boolean {
    return this.renderRoot.querySelector('dialog')?.open ?? false;
  }

  async open(): Promise<void> {
    const d = this.renderRoot.querySelector('dialog');
    if (!d) return;
    this._error = '';
    if (!d.open) d.showModal();
    void this.renderRoot.querySelector('cost-limit-settings')?.load();
    try {
      const [budgets, projects] = await Promise.all([api.get<Budgets>('/api/budgets', {}, undefined, { force: true }), api.get<ProjectRow[]>('/api/projects')]);
      this._loaded = { budgets, projects: [...projects].sort((a, b) => a.name.localeCompare(b.name)) };
    } catch (err) {
      if (!isAbort(err)) this._error = (err as Error).message;
    }
  }

  private async change(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
    // The button pressed is disabled while the change runs (or gone after a removal), which drops the focus to the
    // page behind the dialog, where Escape then went to the shell's keys: it goes back into the dialog afterwards.
    const pressed = this.renderRoot instanceof ShadowRoot ? (this.renderRoot.activeElement as HTMLElement | null) : null;
    this._busy = true;
    this._error = '';
    try {
      const budgets = await api.send<Budgets>(method, path, body);
      if (this._loaded) this._loaded = { ...this._loaded, budgets };
      api.invalidate();
      emit(this, BUDGETS_CHANGED);
    } catch (err) {
      this._error = (err as Error).message;
    } finally {
      this._busy = false;
    }
    await this.updateComplete;
    this.keepFocus(pressed);
  }

  private keepFocus(pressed: HTMLElement | null): void {
    const d = this.renderRoot.querySelector('dialog');
    if (!d?.open) return;
    const active = this.renderRoot instanceof ShadowRoot ? this.renderRoot.activeElement : null;
    if (active && d.contains(active)) return;
    const back = pressed?.isConnected && !(pressed as HTMLButtonElement).disabled ? pressed : d.querySelector<HTMLElement>('input[name="amount"], select, button');
    back?.focus();
  }

  private onSubmit(e: SubmitEvent): void {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const project = String(form.get('project') ?? '');
    // The server checks the value; a field the browser could not read as a number is sent as it is and refused there.
    const raw = String(form.get('amount') ?? '');
    const amount = raw.trim() === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
    void this.change('POST', '/api/budgets', { period: form.get('period'), project: project || null, amount });
  }

  private removeBudget(b: BudgetStatus): void {
    const q = new URLSearchParams({ period: b.period, ...(b.project ? { project: b.project } : {}) });
    void this.change('DELETE', `/api/budgets?${q}`);
  }

  private list(budgets: BudgetStatus[], writable: boolean) {
    if (!budgets.length) return html`<p class="none">No budgets yet.</p>`;
    return html`<table>
      <thead><tr><th scope="col">Period</th><th scope="col">Projects</th><th scope="col" class="num">Budget</th>
        <th scope="col" class="num">Used</th><th scope="col" class="num">Projected</th><th scope="col">State</th><th scope="col"><span class="sr">Remove</span></th></tr></thead>
      <tbody>${budgets.map((b) => html`<tr data-period=${b.period} data-project=${b.project ?? ''}>
        <td>${PERIOD_LABEL[b.period]}</td><td>${whoseText(b)}</td><td class="num">${formatUsd(b.amount)}</td>
        <td class="num">${formatUsd(b.use)}</td><td class="num">${formatUsd(b.projected)}</td><td class="state ${b.state}">${stateText(b)}</td>
        <td>${writable ? html`<button type="button" class="remove" ?disabled=${this._busy} @click=${() => this.removeBudget(b)}
          aria-label=${`Remove the ${b.period} budget for ${whoseText(b)}`}>Remove</button>` : nothing}</td>
      </tr>`)}</tbody>
    </table>`;
  }

  private form(l: Loaded) {
    const scoped = this.scope !== null && scopeRepository(this.scope) === null ? this.scope : '';
    // novalidate: the server checks every value and its message says what is wrong.
    return html`<form novalidate @submit=${(e: SubmitEvent) => this.onSubmit(e)}>
      <label>Period <select name="period">${PERIODS.map((p: BudgetPeriod) => html`<option value=${p}>${PERIOD_LABEL[p]}</option>`)}</select></label>
      <label>Projects <select name="project">
        <option value="">Every project</option>
        ${l.projects.map((p) => html`<option value=${p.id} ?selected=${p.id === scoped}>${p.name}</option>`)}
      </select></label>
      <label>Dollars <input name="amount" type="number" inputmode="decimal" min="0.01" step="0.01" required placeholder="50"></label>
      <button type="submit" class="save" ?disabled=${this._busy}>Save budget</button>
    </form>`;
  }

  // Keys stay in the dialog: the shell's keys (t, ?, Escape as "go up") must not act behind it, and the shell cannot see
  // a dialog in a shadow root. Escape still closes it (the browser's default action).
  override render() {
    const l = this._loaded;
    const writable = l?.budgets.writable ?? false;
    return html`<dialog aria-labelledby="budgets-title" @keydown=${(e: KeyboardEvent) => e.stopPropagation()}>
      <div class="head"><h2 id="budgets-title">Budgets</h2>
        <button type="button" class="close" aria-label="Close" @click=${() => this.renderRoot.querySelector('dialog')?.close()}>×</button></div>
      <p class="about">Daily, weekly (from Monday) and monthly limits in dollars, kept in this machine's index. A budget projected
        to pass at today's pace, or passed, shows a banner and is logged once by the server.</p>
      ${l ? this.list(l.budgets.budgets, writable) : html`<p class="none">Loading…</p>`}
      ${l && !writable ? html`<p class="note">This dashboard reads an index that another process writes: change budgets in that dashboard.</p>` : nothing}
      ${l && writable ? this.form(l) : nothing}
      <p class="error" role="alert">${this._error}</p>
      <cost-limit-settings ?writable=${writable}></cost-limit-settings>
    </dialog>`;
  }

  static override styles = css`
    dialog { width: min(640px, calc(100vw - 32px)); box-sizing: border-box; padding: 16px 20px; color: var(--ink-1); background: var(--bg-elevated);
      border: 1px solid var(--border); border-radius: 12px; box-shadow: 0 12px 40px rgb(0 0 0 / 0.35); }
    dialog::backdrop { background: rgb(0 0 0 / 0.45); }
    .head { display: flex; align-items: center; justify-content: space-between; }
    h2 { font-size: 16px; margin: 0; }
    .about, .none, .note { font-size: 13px; color: var(--ink-2); }
    table { width: 100%; border-collapse: collapse; font-size: 13px; margin: 8px 0 12px; font-variant-numeric: tabular-nums; }
    th { text-align: left; font-weight: 600; color: var(--ink-2); border-bottom: 1px solid var(--border); padding: 4px 6px; }
    td { padding: 4px 6px; border-bottom: 1px solid var(--border); color: var(--ink-1); }
    .num { text-align: right; }
    .state.ok { color: var(--success); }
    .state.warn { color: var(--warning); }
    .state.over { color: var(--error); }
    form { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; }
    label { display: grid; gap: 4px; font-size: 12px; color: var(--ink-2); }
    select, input { font: inherit; font-size: 13px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--border);
      border-radius: 6px; padding: 5px 8px; max-width: 220px; }
    input { width: 110px; }
    button { font: inherit; font-size: 13px; color: var(--ink-1); background: var(--bg-surface); border: 1px solid var(--border);
      border-radius: 6px; padding: 5px 10px; cursor: pointer; }
    button.save { border-color: var(--accent); }
    button.close { border: none; background: none; font-size: 20px; line-height: 1; padding: 2px 8px; }
    :is(button, select, input):focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    button:disabled { opacity: 0.6; cursor: default; }
    .error { color: var(--error); font-size: 13px; min-height: 1em; margin: 10px 0 0; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  `;
}

customElements.define('cost-budget-dialog', CostBudgetDialog);

declare global {
  interface HTMLElementTagNameMap {
    'cost-budget-dialog': CostBudgetDialog;
  }
}
