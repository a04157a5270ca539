// The cost of one request from its tokens (decisions.md "What counts, and what it costs"). Pure.
import type { CostInput, ModelPrice } from './types.ts';

export const LONG_CONTEXT_THRESHOLD = 200_000;
export const WEB_SEARCH_USD = 0.01;
/** US-only inference (`usage.inference_geo` "us") costs this much more on every token kind and on web search. */
export const US_ONLY_MULTIPLIER = 1.1;

/**
 * Fast-mode multiplier when the catalogue entry has no `provider_specific_entry.fast`:
 * 6 for Opus 4.6 and 4.7, 2 for Opus 4.8 and every later Opus, else 1.
 * Reads the version after `opus` (`claude-opus-4-6`, `claude-opus4-7`, `claude-opus-5`); an 8-digit date is not a minor version.
 */
export function defaultFastMultiplier(model: string): number {
  const m = /opus-?(\d+)(?:[-.](\d+))?(?![\d])/.exec(model);
  if (!m) return 1;
  const major = Number(m[1]);
  const minor = m[2] && m[2].length < 8 ? Number(m[2]) : 0;
  if (major === 4 && (minor === 6 || minor === 7)) return 6;
  if (major > 4 || (major === 4 && minor >= 8)) return 2;
  return 1;
}

/**
 * Token cost x fast multiplier, plus web searches, all x US_ONLY_MULTIPLIER when `u.geoUs`. `fastMultiplier` is only
 * applied when `u.fast`. Web fetches have no fee.
 */
export function tokenCost(price: ModelPrice, u: CostInput, fastMultiplier: number): number {
  const cache1h = Math.min(Math.max(u.cache1h, 0), u.cacheCreate);
  const cache5m = u.cacheCreate - cache1h;
  // Anthropic's long-context rule: past the threshold every token of the request uses the long-context prices.
  const p = price.above200k && u.input + u.cacheRead + u.cacheCreate > LONG_CONTEXT_THRESHOLD ? price.above200k : price;
  const tokens =
    u.input * p.input + u.output * p.output + u.cacheRead * p.cacheRead + cache5m * p.cacheWrite5m + cache1h * p.cacheWrite1h;
  const cost = tokens * (u.fast ? fastMultiplier : 1) + u.webSearch * WEB_SEARCH_USD;
  return u.geoUs ? cost * US_ONLY_MULTIPLIER : cost;
}
