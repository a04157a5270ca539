// Reads LiteLLM's model_prices_and_context_window.json format into our per-token prices.
// Entries without numeric input and output prices (e.g. `sample_spec`, image or embedding
// models) are skipped and counted, never fatal.
import type { PriceEntry } from '../shared/api-types.ts';
import { fastRule } from './cost.ts';
import type { ModelPrice } from './types.ts';

export interface CatalogueModel {
  price: ModelPrice;
  /** The catalogue's own figures, null where the catalogue has none, and the fast rule applied (for /api/pricing). */
  entry: PriceEntry;
}

export interface ParsedCatalogue {
  models: Map<string, CatalogueModel>;
  skipped: number;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

function parseModel(key: string, raw: Record<string, unknown>): CatalogueModel | null {
  const input = num(raw.input_cost_per_token);
  const output = num(raw.output_cost_per_token);
  if (input === null || output === null) return null;
  const write5m = num(raw.cache_creation_input_token_cost);
  const write1h = num(raw.cache_creation_input_token_cost_above_1hr);
  const read = num(raw.cache_read_input_token_cost);
  const inputLong = num(raw.input_cost_per_token_above_200k_tokens);
  const outputLong = num(raw.output_cost_per_token_above_200k_tokens);
  const readLong = num(raw.cache_read_input_token_cost_above_200k_tokens);
  const write5mLong = num(raw.cache_creation_input_token_cost_above_200k_tokens);
  const write1hLong = num(raw.cache_creation_input_token_cost_above_1hr_above_200k_tokens);
  const specific = raw.provider_specific_entry;
  const fast = specific && typeof specific === 'object' ? num((specific as Record<string, unknown>).fast) : null;

  const price: ModelPrice = {
    input,
    output,
    // Anthropic's cache rates relative to input when the catalogue omits them: read 0.1x, 5m write 1.25x, 1h write 2x.
    cacheRead: read ?? input * 0.1,
    cacheWrite5m: write5m ?? input * 1.25,
    cacheWrite1h: write1h ?? input * 2,
    above200k: null,
    fast,
  };
  if (inputLong !== null || outputLong !== null || readLong !== null || write5mLong !== null || write1hLong !== null) {
    // A kind without its own long-context price keeps its base price. 1-hour writes, unless the
    // catalogue has `cache_creation_input_token_cost_above_1hr_above_200k_tokens`: 2x the long-context
    // input (Anthropic's 1h rule applied to the long-context rate; Sonnet 4.5: 2 x $6 = $12 per MTok).
    price.above200k = {
      input: inputLong ?? price.input,
      output: outputLong ?? price.output,
      cacheRead: readLong ?? price.cacheRead,
      cacheWrite5m: write5mLong ?? price.cacheWrite5m,
      cacheWrite1h: write1hLong ?? (inputLong !== null ? inputLong * 2 : price.cacheWrite1h),
    };
  }
  const rule = fastRule(fast, key);
  const entry: PriceEntry = {
    model: key,
    inputCostPerToken: input,
    outputCostPerToken: output,
    cacheCreationInputTokenCost: write5m,
    cacheCreationInputTokenCostAbove1hr: write1h,
    cacheReadInputTokenCost: read,
    inputCostPerTokenAbove200k: inputLong,
    outputCostPerTokenAbove200k: outputLong,
    fastMultiplier: rule.multiplier,
    fastEstimated: rule.estimated,
  };
  return { price, entry };
}

/** Throws a TypeError when `json` is not a catalogue at all (not an object, or no priced model). */
export function parseCatalogue(json: unknown, source: string): ParsedCatalogue {
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new TypeError(`price catalogue ${source} is not a JSON object`);
  }
  const models = new Map<string, CatalogueModel>();
  let skipped = 0;
  for (const [key, raw] of Object.entries(json as Record<string, unknown>)) {
    const model = key !== 'sample_spec' && raw && typeof raw === 'object' ? parseModel(key, raw as Record<string, unknown>) : null;
    if (model) models.set(key, model);
    else skipped++;
  }
  if (models.size === 0) throw new TypeError(`price catalogue ${source} has no model with input and output prices`);
  return { models, skipped };
}
