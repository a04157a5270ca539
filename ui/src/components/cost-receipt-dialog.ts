import { LitElement, css, html, nothing } from 'lit';
import type { Receipt, ReceiptItemKind, ReceiptLine, ReceiptMultiplier, ReceiptRule } from '../../../src/shared/api-types.ts';
import { api, isAbort } from '../api.ts';
import { formatInt, formatUsd, shortModel } from '../format.ts';
import { rangeText } from './view-kit.ts';

const ITEM: Record<ReceiptItemKind, string> = {
  input: 'Input', output: 'Output', cacheRead: 'Cache read', cacheWrite5m: 'Cache write (5 min)', cacheWrite1h: 'Cache write (1 hour)',
  webSearch: 'Web searches', webFetch: 'Web fetches',
};

const MULTIPLIER: Record<ReceiptMultiplier['rule'], string> = { fast: 'Fast mode', usOnly: 'US-only inference' };

const RULE: Record<ReceiptRule['rule'], (r: ReceiptRule) => string> = {
  longContext: (r) => `Long context: ${formatInt(r.tokens)} tokens of requests over 200k at the long-context prices, ${formatUsd(r.added)} more than at the plain ones`,
  fast: (r) => `Fast mode: ${formatInt(r.tokens)} tokens × the model's fast multiplier, ${formatUsd(r.added)} added`,
  usOnly: (r) => `US-only inference: ${formatInt(r.tokens)} tokens × 1.1, ${formatUsd(r.added)} added`,
  advisor: (r) => `Advisor iterations: ${formatInt(r.tokens)} tokens on top of their responses, ${formatUsd(r.added)}`,
  webFetch: (r) => `Web fetch: ${formatInt(r.tokens)} requests, counted with no fee`,
  cache1h: (r) => `1-hour cache writes: ${formatInt(r.tokens)} tokens, ${formatUsd(r.added)} more than 5-minute writes`,
  webSearch: (r) => `Web search: ${formatInt(r.tokens)} requests × $0.01 = ${formatUsd(r.added)}`,
  costUSD: (r) => `Lines with their own costUSD: ${formatInt(r.tokens)} tokens, ${formatUsd(r.added)} as written`,
  unpriced: (r) => `Models the catalogue does not price: ${formatInt(r.tokens)} tokens at $0`,
};

/** A unit price per million tokens (per request for web search), with enough digits for Haiku's cache reads. */
function unit(kind: ReceiptItemKind, p: number | null): string {
  if (p === null) return '—';
  if (kind === 'webSearch' || kind === 'webFetch') return p === 0 ? 'no fee' : `${formatUsd(p)} each`;
  const perM = p * 1e6;
  return `$${perM.toFixed(perM < 1 ? 3 : 2)} / M`;
}

function tags(l: ReceiptLine): string[] {
  const out: string[] = [];
  if (l.longContext) out.push('long context');
  if (l.fast) out.push('fast');
  if (l.usOnly) out.push('US-only');
  if (l.advisor) out.push('advisor');
  if (l.pricing === 'costUSD') out.push('own costUSD');
  if (l.pricing === 'unpriced') out.push('not in the catalogue: $0');
  if (l.pricing === 'free') out.push('not billed');
  return out;
}

/**
 * "How is this computed?": a figure's receipt (GET /api/receipt) as a native modal dialog: per model, each token kind
 * × its unit price, the multipliers, the lines' own costs, then what each price rule added and the total, which is the
 * figure it was opened from. Escape closes it, and the browser gives the focus back to the button that opened it (a
 * modal dialog's focus steps).
 */
export class CostReceiptDialog extends LitElement {
  static override properties = {
    _receipt: { state: true },
    _what: { state: true },
    _error: { state: true },
  };

  private declare _receipt: Receipt | null;
  private declare _what: string;
  private declare _error: string;

  constructor() {
    super();
    this._receipt = null;
    this._what = '';
    this._error = '';
  }

  get isOpen(): boolean {
    return this.renderRoot.querySelector('dialog')?.open ?? false;
  }

  /** Opens the receipt of `params` (the figure's range and scope, `session` for a session's); `what` names the figure. */
  async open(what: string, params: Record<string, string>): Promise<void> {
    const d = this.renderRoot.querySelector('dialog');
    if (!d) return;
    this._what = what;
    this._receipt = null;
    this._error = '';
    if (!d.open) d.showModal();
    try {
      this._receipt = await api.get<Receipt>('/api/receipt', params);
    } catch (err) {
      if (!isAbort(err)) this._error = (err as Error).message;
    }
  }

  private line(l: ReceiptLine) {
    const t = tags(l);
    return html`<tbody data-model=${l.model} data-pricing=${l.pricing}>
      <tr class="model"><th scope="rowgroup" colspan="4"><span title=${l.priceKey ? `Priced as ${l.priceKey}` : l.model}>${shortModel(l.model)}</span>
        ${t.map((x) => html`<span class="tag">${x}</span>`)}<span class="count">${formatInt(l.messages)} ${l.messages === 1 ? 'request' : 'requests'}</span></th>
        <td class="num sub">${formatUsd(l.amount)}</td></tr>
      ${l.items.map((i) => html`<tr class="item" data-kind=${i.kind}><td>${ITEM[i.kind]}</td><td class="num">${formatInt(i.tokens)}</td>
        <td class="op">×</td><td class="num">${unit(i.kind, i.unitPrice)}</td><td class="num">${i.unitPrice === null ? '' : formatUsd(i.amount)}</td></tr>`)}
      ${l.multipliers.map((m) => html`<tr class="item mult" data-rule=${m.rule}><td colspan="3">${MULTIPLIER[m.rule]}</td><td class="num" title=${m.estimated ? "Neither the catalogue nor the project's table knows this model's fast multiplier: priced at 2" : nothing}>× ${m.factor}${m.estimated ? ' (estimate)' : ''}</td>
        <td class="num">+${formatUsd(m.added)}</td></tr>`)}
      ${l.pricing === 'costUSD' ? html`<tr class="item"><td colspan="4">Its lines' own costUSD</td><td class="num">${formatUsd(l.ownCost)}</td></tr>` : nothing}
    </tbody>`;
  }

  private body(r: Receipt) {
    if (!r.lines.length) return html`<p class="none">No usage here.</p>`;
    return html`
      <div class="scroll"><table>
        <thead><tr><th scope="col">Model / tokens</th><th scope="col" class="num">Tokens</th><th scope="col"><span class="sr">times</span></th>
          <th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
        ${r.lines.map((l) => this.line(l))}
        <tfoot><tr><th scope="row" colspan="4">Total</th><td class="num total" data-total=${r.total}>${formatUsd(r.total)}</td></tr></tfoot>
      </table></div>
      ${r.rules.length ? html`<h3>What each rule did</h3><ul class="rules">${r.rules.map((x) => html`<li data-rule=${x.rule}>${RULE[x.rule](x)}</li>`)}</ul>` : nothing}
      ${r.mismatch
        ? html`<p class="warn" role="status">The prices installed now give ${formatUsd(r.mismatch.computed)}, not the ${formatUsd(r.mismatch.stored)}
            stored: some costs were computed with another catalogue or mode, and are repriced when the server next loads prices.</p>`
        : nothing}
      <p class="about">Prices from ${r.priceSource}. ${r.costMode === 'auto' ? "A line's own costUSD wins over its tokens." : 'Every line is priced from its tokens (--cost-mode calculate).'}</p>`;
  }

  // Keys stay in the dialog (the shell's keys must not act behind it); Escape still closes it, the browser's default.
  override render() {
    const r = this._receipt;
    return html`<dialog aria-labelledby="receipt-title" @keydown=${(e: KeyboardEvent) => e.stopPropagation()}>
      <div class="head"><h2 id="receipt-title">How is this computed?</h2>
        <button type="button" class="close" aria-label="Close" @click=${() => this.renderRoot.querySelector('dialog')?.close()}>×</button></div>
      <p class="what">${this._what}${r ? html` · ${rangeText(r.range)}` : nothing}</p>
      ${r ? this.body(r) : this._error ? nothing : html`<p class="none">Loading…</p>`}
      <p class="error" role="alert">${this._error}</p>
    </dialog>`;
  }

  static override styles = css`
    dialog { width: min(760px, calc(100vw - 32px)); max-height: calc(100vh - 48px); box-sizing: border-box; padding: 16px 20px; color: var(--ink-1);
      background: var(--bg-elevated); border: 1px solid var(--border); border-radius: 12px; box-shadow: 0 12px 40px rgb(0 0 0 / 0.35); }
    dialog::backdrop { background: rgb(0 0 0 / 0.45); }
    .head { display: flex; align-items: center; justify-content: space-between; }
    h2 { font-size: 16px; margin: 0; }
    h3 { font-size: 13px; margin: 14px 0 6px; color: var(--ink-2); }
    .what, .about, .none { font-size: 13px; color: var(--ink-2); margin: 4px 0 10px; }
    .about { margin-top: 12px; color: var(--ink-3); }
    .scroll { overflow-x: auto; }
    table { width: 100%; border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
    th, td { padding: 3px 6px; text-align: left; white-space: nowrap; }
    thead th { font-weight: 600; color: var(--ink-2); border-bottom: 1px solid var(--border); }
    tr.model th { padding-top: 10px; font-weight: 600; color: var(--ink-1); white-space: normal; }
    tr.model td { padding-top: 10px; font-weight: 600; }
    tr.item td:first-child { padding-left: 18px; color: var(--ink-2); }
    tr.mult td { color: var(--ink-1); }
    .op { color: var(--ink-3); text-align: center; }
    .num { text-align: right; }
    .tag { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; font-size: 11px; font-weight: 500;
      color: var(--ink-2); border: 1px solid var(--border); }
    .count { margin-left: 8px; font-size: 12px; font-weight: 400; color: var(--ink-3); }
    tfoot th, tfoot td { border-top: 1px solid var(--border); padding-top: 8px; font-weight: 650; font-size: 14px; }
    .rules { margin: 0; padding-left: 18px; font-size: 13px; color: var(--ink-2); }
    .rules li { margin: 2px 0; }
    .warn { color: var(--warning); font-size: 13px; }
    .error { color: var(--error); font-size: 13px; min-height: 1em; margin: 6px 0 0; }
    button.close { font: inherit; font-size: 20px; line-height: 1; padding: 2px 8px; color: var(--ink-1); background: none; border: none; cursor: pointer; }
    button.close:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  `;
}

customElements.define('cost-receipt-dialog', CostReceiptDialog);

/** Opens the page's one receipt dialog (made on first use, at the end of the body, so every view shares it). */
export async function openReceipt(what: string, params: Record<string, string>): Promise<void> {
  let d = document.querySelector('cost-receipt-dialog');
  if (!d) document.body.append((d = document.createElement('cost-receipt-dialog')));
  await d.updateComplete;
  await d.open(what, params);
}

/** The "How is this computed?" button of a figure; a click does not reach a table row it sits in. */
export function receiptButton(what: string, params: () => Record<string, string>, label = 'How is this computed?') {
  return html`<button type="button" class=${label === '?' ? 'icon receipt' : 'receipt'} aria-label=${`How is ${what} computed?`} title=${`How is ${what} computed?`}
    @click=${(e: Event) => { e.stopPropagation(); void openReceipt(what, params()); }}>${label}</button>`;
}

declare global {
  interface HTMLElementTagNameMap {
    'cost-receipt-dialog': CostReceiptDialog;
  }
}
