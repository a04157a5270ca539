// GET /api/receipt: where a cost figure comes from (issue 32 "Receipts"). Re-exported by api-types.ts, which adds the
// envelope (Receipt); this file imports nothing, so the two make no circle.

/** A priced part of a line: its tokens (requests for web search and web fetch) × the unit price used. */
export type ReceiptItemKind = 'input' | 'output' | 'cacheRead' | 'cacheWrite5m' | 'cacheWrite1h' | 'webSearch' | 'webFetch';

export interface ReceiptItem {
  kind: ReceiptItemKind;
  /** Tokens, or requests for web search and web fetch. */
  tokens: number;
  /**
   * USD per token (per request for web search; web fetch has no fee: 0): the long-context price on a long-context line;
   * null on a line not priced from the catalogue.
   */
  unitPrice: number | null;
  /** tokens × unitPrice (0 when unitPrice is null). */
  amount: number;
}

/**
 * A factor applied to a line after its items, in this order: fast mode on the token items, then US-only inference on
 * everything (token items × fast, web search).
 */
export interface ReceiptMultiplier {
  rule: 'fast' | 'usOnly';
  factor: number;
  /** A fast multiplier neither the catalogue nor the project's dated table knows: priced at 2 and marked so. */
  estimated: boolean;
  /** USD the factor added: fast (Σ token items) × (factor - 1); usOnly (Σ token items × fast + web search) × (factor - 1). */
  added: number;
}

/**
 * How a line is priced: from the catalogue; by the lines' own `costUSD`; not at all, for a model the catalogue does
 * not know (unpriced, $0); or never, for a name starting with `<` (`<synthetic>`, $0).
 */
export type ReceiptPricing = 'catalogue' | 'costUSD' | 'unpriced' | 'free';

/** The messages of one model priced one way: one row of the receipt. */
export interface ReceiptLine {
  model: string;
  /** The catalogue entry that priced it; null when none did. */
  priceKey: string | null;
  pricing: ReceiptPricing;
  /** Each request of the line passed 200k input tokens and the model has long-context prices (the items use them). */
  longContext: boolean;
  fast: boolean;
  /** US-only inference (`usage.inference_geo` "us"). */
  usOnly: boolean;
  /** Advisor iterations of responses (`usage.iterations[]`), priced under their own model on top of the responses. */
  advisor: boolean;
  messages: number;
  /** Input + output + cache write + cache read tokens. */
  tokens: number;
  items: ReceiptItem[];
  multipliers: ReceiptMultiplier[];
  /** The lines' own costUSD summed (pricing 'costUSD'), else 0. */
  ownCost: number;
  /** Σ items + Σ multipliers + ownCost: the line recomputed from its tokens and the installed price table. */
  amount: number;
  /** Σ the stored costs of the line's messages. */
  stored: number;
}

/**
 * What one price rule did across the receipt: the tokens it touched (requests for web search and web fetch) and the USD
 * it added. `longContext` and `cache1h` are already inside the items (what the long-context and 1-hour prices add over
 * the plain and 5-minute ones); `fast` and `usOnly` are the multipliers; `advisor` the advisor lines' amounts;
 * `webSearch` an item; `webFetch` counted at 0; `costUSD` the lines' own costs; `unpriced` tokens priced at 0.
 */
export interface ReceiptRule {
  rule: 'longContext' | 'fast' | 'usOnly' | 'cache1h' | 'advisor' | 'webSearch' | 'webFetch' | 'costUSD' | 'unpriced';
  tokens: number;
  added: number;
}

/** The figures of a receipt, without the envelope the route adds (api-types.ts Receipt). */
export interface ReceiptFigures {
  /** Where the installed price table came from, and whether a line's own costUSD wins ('auto') or not ('calculate'). */
  priceSource: string;
  costMode: 'auto' | 'calculate';
  /** The dearest first. */
  lines: ReceiptLine[];
  /** Only the rules that touched something. */
  rules: ReceiptRule[];
  messages: number;
  /** Σ the stored costs: the figure the receipt explains (the overview's cost, the session's). */
  total: number;
  /** Σ the lines' amounts. */
  computed: number;
  /** Set when computed and total differ by $0.005 or more (a stored cost from another price table, a bad row). */
  mismatch: { computed: number; stored: number; difference: number } | null;
}
