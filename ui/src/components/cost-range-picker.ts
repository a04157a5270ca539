import { LitElement, css, html } from 'lit';
import { DEFAULT_RANGE, RANGE_PRESETS, customRange, rangeLabel, sameRange } from '../state.ts';
import { dayKey } from '../../../src/calendar/days.ts';
import { selectionDays } from '../../../src/calendar/resolve.ts';
import { dayOf, systemZone } from '../../../src/calendar/zone.ts';
import type { RangeSel } from '../state.ts';
import { formatDayRange } from '../format.ts';
import { icons } from './icons.ts';
import { placePopover } from './popover.ts';
import { adoptDocumentStyles, base, buttons, segmented, popover } from './shared-styles.ts';


const styles = css`
  /* In a narrow window or hub pane the presets wrap onto a second row: all of them stay in sight (Custom included),
     and the page never scrolls sideways. */
  cost-range-picker {
    display: block;
    min-width: 0;
    max-width: 100%;
  }

  cost-range-picker .segmented {
    flex-wrap: wrap;
  }

  .range-popover .popover-title {
    margin-bottom: var(--space-3);
  }

  .popover-actions {
    display: flex;
    justify-content: flex-end;
    gap: var(--space-2);
    margin-top: var(--space-3);
  }

  .field-row {
    display: flex;
    gap: var(--space-3);
    flex-wrap: wrap;
  }

  .field {
    display: flex;
    flex-direction: column;
    gap: 4px;
    font-size: var(--fs-sm);
    color: var(--ink-2);
    font-weight: 550;
  }

  .field input {
    height: 34px;
    padding: 0 var(--space-2);
    border: 1px solid var(--border);
    border-radius: var(--radius-sm);
    background: var(--bg-surface);
    color: var(--ink-1);
    font: 400 var(--fs-md) / 1 var(--font-sans);
    color-scheme: inherit;
  }

  .form-note {
    margin: var(--space-2) 0 0;
    font-size: var(--fs-sm);
    color: var(--ink-3);
  }

  .form-error {
    margin: var(--space-2) 0 0;
    font-size: var(--fs-sm);
    color: var(--error);
  }
`;
adoptDocumentStyles(base, buttons, segmented, popover, styles);

/**
 * Range presets as a segmented control plus a "Custom" popover with from/to calendar inputs. Light DOM: an open
 * popover owns the keyboard, and the shell's keys find it with a document query (controllers/keys.ts).
 *
 * @fires range-change - `{range: RangeSel}` when the user picks a range.
 */
export class CostRangePicker extends LitElement {
  static override properties = {
    range: { attribute: false },
    _error: { state: true },
  };

  declare range: RangeSel;
  private declare _error: string;

  constructor() {
    super();
    this.range = DEFAULT_RANGE;
    this._error = '';
  }

  protected override createRenderRoot() {
    return this;
  }

  private pick(range: RangeSel): void {
    this.dispatchEvent(new CustomEvent('range-change', { detail: { range }, bubbles: true, composed: true }));
  }

  private get panel(): HTMLElement | null {
    return this.querySelector('#range-custom');
  }

  private onToggle(e: ToggleEvent): void {
    if (e.newState !== 'open') return;
    this._error = '';
    const span = selectionDays(this.range, Date.now(), systemZone);
    const from = this.querySelector<HTMLInputElement>('#range-from');
    const to = this.querySelector<HTMLInputElement>('#range-to');
    if (from && to) {
      from.value = span.from;
      to.value = span.to;
      from.max = to.max = dayKey(dayOf(systemZone, Date.now()));
    }
    placePopover(this.panel, this.querySelector('#range-custom-btn'));
    from?.focus();
  }

  private apply(e: Event): void {
    e.preventDefault();
    const from = this.querySelector<HTMLInputElement>('#range-from')?.value ?? '';
    const to = this.querySelector<HTMLInputElement>('#range-to')?.value ?? '';
    const range = customRange(from, to);
    if (!range) {
      this._error = 'Pick both dates.';
      return;
    }
    this.panel?.hidePopover();
    this.pick(range);
  }

  protected override render() {
    const custom = this.range.kind === 'custom';
    return html`<div class="segmented" role="group" aria-label="Date range">
        ${RANGE_PRESETS.map(
          (p) => html`<button
            type="button"
            class="seg"
            data-range=${p.short}
            aria-pressed=${sameRange(p.range, this.range) ? 'true' : 'false'}
            title=${p.label}
            @click=${() => this.pick(p.range)}
          >
            ${p.short}
          </button>`,
        )}
        <button
          id="range-custom-btn"
          type="button"
          class="seg seg-custom"
          aria-pressed=${custom ? 'true' : 'false'}
          popovertarget="range-custom"
          title="Custom range"
        >
          ${icons.calendar()}<span>${custom && this.range.kind === 'custom' ? formatDayRange(this.range.from, this.range.to) : 'Custom'}</span>
        </button>
      </div>
      <div id="range-custom" class="popover range-popover" popover @toggle=${this.onToggle}>
        <form @submit=${this.apply}>
          <div class="popover-title">Custom range</div>
          <div class="field-row">
            <label class="field"><span>From</span><input id="range-from" type="date" required /></label>
            <label class="field"><span>To</span><input id="range-to" type="date" required /></label>
          </div>
          <p class="form-note">Whole local days, both included. Now: ${rangeLabel(this.range)}.</p>
          ${this._error ? html`<p class="form-error" role="alert">${this._error}</p>` : ''}
          <div class="popover-actions">
            <button type="button" class="btn ghost" @click=${() => this.panel?.hidePopover()}>Cancel</button>
            <button type="submit" class="btn primary">Apply</button>
          </div>
        </form>
      </div>`;
  }
}

customElements.define('cost-range-picker', CostRangePicker);

declare global {
  interface HTMLElementTagNameMap {
    'cost-range-picker': CostRangePicker;
  }
}
