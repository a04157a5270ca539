// The cost of one request from its tokens (decisions.md "What counts, and what it costs"). Pure.
import type { CostInput, ModelPrice } from './types.ts';

export const LONG_CONTEXT_THRESHOLD = 200_000;
export const WEB_SEARCH_USD = 0.01;
/** US-only inference (`usage.inference_geo` "us") costs this much more on every token kind and on web search. */
export const US_ONLY_MULTIPLIER = 1.1;

/** The multiplier of a fast entry on a model neither the catalogue nor the dated table knows: an estimate, never 1x. */
export const ESTIMATED_FAST_MULTIPLIER = 2;

/** A model's fast-mode multiplier, and whether it is an estimate (listed as such on the overview). */
export interface FastRule {
  multiplier: number;
  estimated: boolean;
}

/** The catalogue's `provider_specific_entry.fast` when it has one, else the dated table's, else the estimate. */
export function fastRule(catalogue: number | null, model: string): FastRule {
  const known = catalogue ?? datedFastMultiplier(model);
  return known === null ? { multiplier: ESTIMATED_FAST_MULTIPLIER, estimated: true } : { multiplier: known, estimated: false };
}

/**
 * The project's dated table of fast-mode multipliers (decisions.md), for a catalogue entry without one: 1 for the Opus
 * models before 4.6 (fast mode came with Opus 4.6: their `speed` never cost more), 6 for Opus 4.6 and 4.7; 2 for Opus
 * 4.8, Opus 5 and 5.5, Fable 5.2 and every later Opus or Fable; null for any other model (Sonnet, Haiku, an earlier
 * Fable, a name it cannot place). Reads the version after `opus`/`fable` (`claude-opus-4-6`, `claude-opus4-7`,
 * `claude-fable-5-2`); an 8-digit date is not a version (`claude-3-opus-20240229`, `claude-opus-4-20250514`).
 */
export function datedFastMultiplier(model: string): number | null {
  const m = /(opus|fable)-?(\d+)(?:[-.](\d+))?(?![\d])/.exec(model);
  if (!m) return null;
  const dated = m[2]!.length >= 8;
  const major = dated ? 0 : Number(m[2]);
  const minor = m[3] && m[3].length < 8 ? Number(m[3]) : 0;
  if (m[1] === 'fable') return major > 5 || (major === 5 && minor >= 2) ? 2 : null;
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
