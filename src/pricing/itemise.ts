// A receipt's lines from groups of messages priced alike (issue 32 "Receipts"). Pure: the same rules as cost.ts's
// tokenCost, spelt out per token kind so each price and factor can be shown, over sums of tokens (the cost of a
// request is linear in its tokens once its model, fast flag, US-only flag, own costUSD and long-context side are fixed,
// so a group's sum prices like the sum of its messages).
import type { ReceiptItem, ReceiptItemKind, ReceiptLine, ReceiptMultiplier, ReceiptRule } from '../shared/receipt-types.ts';
import { US_ONLY_MULTIPLIER, WEB_SEARCH_USD } from './cost.ts';
import type { PriceTable } from './table.ts';
import type { ModelPrice } from './types.ts';

/** The messages of one model that price alike, summed. */
export interface ReceiptGroup {
  model: string;
  fast: boolean;
  /** US-only inference. */
  geo: boolean;
  /** Advisor iterations (rows of their own, priced like any other). */
  advisor: boolean;
  /** Every request passed the long-context threshold (input + cache read + cache write over 200k). */
  longContext: boolean;
  /** Every line carries a usable costUSD of its own. */
  ownCost: boolean;
  messages: number;
  input: number;
  output: number;
  cacheCreate: number;
  cacheRead: number;
  /** The part of cacheCreate written for an hour. */
  cache1h: number;
  webSearch: number;
  webFetch: number;
  /** Σ the lines' costUSD (0 unless ownCost). */
  costUSD: number;
  /** Σ the stored costs. */
  stored: number;
}

type Prices = Omit<ModelPrice, 'above200k' | 'fast'>;

interface Priced {
  line: ReceiptLine;
  /** USD the long-context prices added over the plain ones (0 on a plain line). */
  longAdded: number;
  /** USD the 1-hour write price added over the 5-minute one. */
  hourAdded: number;
}

function tokenCounts(g: ReceiptGroup): [ReceiptItemKind, number, keyof Prices | null][] {
  return [
    ['input', g.input, 'input'],
    ['output', g.output, 'output'],
    ['cacheRead', g.cacheRead, 'cacheRead'],
    ['cacheWrite5m', g.cacheCreate - g.cache1h, 'cacheWrite5m'],
    ['cacheWrite1h', g.cache1h, 'cacheWrite1h'],
    ['webSearch', g.webSearch, null],
    ['webFetch', g.webFetch, null],
  ];
}

/** The items of a line no catalogue price applies to: its tokens, at no unit price. */
function unpricedItems(g: ReceiptGroup): ReceiptItem[] {
  return tokenCounts(g).filter(([, n]) => n !== 0).map(([kind, tokens]) => ({ kind, tokens, unitPrice: null, amount: 0 }));
}

function priceLine(table: PriceTable, g: ReceiptGroup): Priced {
  const tokens = g.input + g.output + g.cacheCreate + g.cacheRead;
  const line: ReceiptLine = {
    model: g.model, priceKey: null, pricing: 'free', longContext: false, fast: g.fast, usOnly: g.geo, advisor: g.advisor, messages: g.messages, tokens,
    items: [], multipliers: [], ownCost: 0, amount: 0, stored: g.stored,
  };
  // The order of PriceTable.cost: a `<…>` name, then a line's own costUSD (auto mode), then the catalogue.
  if (g.model.startsWith('<')) return { line: { ...line, items: unpricedItems(g) }, longAdded: 0, hourAdded: 0 };
  if (g.ownCost) {
    return { line: { ...line, pricing: 'costUSD', items: unpricedItems(g), ownCost: g.costUSD, amount: g.costUSD }, longAdded: 0, hourAdded: 0 };
  }
  const found = table.lookup(g.model);
  if (!found) return { line: { ...line, pricing: 'unpriced', items: unpricedItems(g) }, longAdded: 0, hourAdded: 0 };

  const { price } = found;
  const long = g.longContext && price.above200k !== null;
  const p: Prices = long ? price.above200k! : price;
  const items: ReceiptItem[] = [];
  let base = 0;
  let longAdded = 0;
  for (const [kind, n, column] of tokenCounts(g)) {
    if (n === 0) continue;
    // Web fetch has no fee: counted, at 0.
    const unitPrice = column !== null ? p[column] : kind === 'webSearch' ? WEB_SEARCH_USD : 0;
    const amount = n * unitPrice;
    items.push({ kind, tokens: n, unitPrice, amount });
    if (column === null) continue;
    base += amount;
    if (long) longAdded += n * (p[column] - price[column]);
  }
  const multipliers: ReceiptMultiplier[] = [];
  // A priced model always has a fast rule (the estimate at worst).
  const fast = g.fast ? table.fastOf(g.model)! : null;
  const factor = fast?.multiplier ?? 1;
  if (fast) multipliers.push({ rule: 'fast', factor, estimated: fast.estimated, added: base * (factor - 1) });
  if (g.geo) {
    multipliers.push({ rule: 'usOnly', factor: US_ONLY_MULTIPLIER, estimated: false,
      added: (base * factor + g.webSearch * WEB_SEARCH_USD) * (US_ONLY_MULTIPLIER - 1) });
  }
  const amount = items.reduce((s, i) => s + i.amount, 0) + multipliers.reduce((s, m) => s + m.added, 0);
  return {
    line: { ...line, priceKey: found.key, pricing: 'catalogue', longContext: long, items, multipliers, amount },
    longAdded,
    hourAdded: g.cache1h * (p.cacheWrite1h - p.cacheWrite5m),
  };
}

/**
 * The groups as the table prices them: a costUSD counts only in 'auto' mode and the long-context side only for a model
 * with long-context prices, so groups that differ in neither way the table sees are one line.
 */
function pricedAlike(table: PriceTable, groups: readonly ReceiptGroup[]): ReceiptGroup[] {
  const by = new Map<string, ReceiptGroup>();
  for (const g of groups) {
    const ownCost = table.mode === 'auto' && g.ownCost;
    const longContext = g.longContext && !ownCost && (table.lookup(g.model)?.price.above200k ?? null) !== null;
    const key = JSON.stringify([g.model, g.fast, g.geo, g.advisor, ownCost, longContext]);
    const into = by.get(key);
    if (!into) {
      by.set(key, { ...g, ownCost, longContext, costUSD: ownCost ? g.costUSD : 0 });
      continue;
    }
    into.messages += g.messages;
    into.input += g.input;
    into.output += g.output;
    into.cacheCreate += g.cacheCreate;
    into.cacheRead += g.cacheRead;
    into.cache1h += g.cache1h;
    into.webSearch += g.webSearch;
    into.webFetch += g.webFetch;
    into.costUSD += ownCost ? g.costUSD : 0;
    into.stored += g.stored;
  }
  return [...by.values()];
}

/** The receipt's lines (the dearest first) and what each rule touched and added, from the installed table. */
export function itemise(table: PriceTable, groups: readonly ReceiptGroup[]): { lines: ReceiptLine[]; rules: ReceiptRule[] } {
  const rules = new Map<ReceiptRule['rule'], ReceiptRule>();
  const touch = (rule: ReceiptRule['rule'], tokens: number, added: number): void => {
    if (tokens === 0) return;
    const r = rules.get(rule) ?? { rule, tokens: 0, added: 0 };
    r.tokens += tokens;
    r.added += added;
    rules.set(rule, r);
  };
  const lines: ReceiptLine[] = [];
  for (const g of pricedAlike(table, groups)) {
    const { line, longAdded, hourAdded } = priceLine(table, g);
    lines.push(line);
    // Counted whatever prices the line: no fee either way.
    touch('webFetch', g.webFetch, 0);
    if (line.advisor) touch('advisor', line.tokens, line.amount);
    if (line.pricing === 'costUSD') touch('costUSD', line.tokens, line.ownCost);
    else if (line.pricing === 'unpriced') touch('unpriced', line.tokens, 0);
    if (line.pricing !== 'catalogue') continue;
    if (line.longContext) touch('longContext', line.tokens, longAdded);
    touch('cache1h', g.cache1h, hourAdded);
    touch('webSearch', g.webSearch, g.webSearch * WEB_SEARCH_USD);
    for (const m of line.multipliers) touch(m.rule, line.tokens, m.added);
  }
  lines.sort((a, b) => b.amount - a.amount || a.model.localeCompare(b.model) || b.tokens - a.tokens);
  const order: ReceiptRule['rule'][] = ['longContext', 'fast', 'usOnly', 'cache1h', 'advisor', 'webSearch', 'webFetch', 'costUSD', 'unpriced'];
  return { lines, rules: order.flatMap((r) => rules.get(r) ?? []) };
}
