// The pricing layer's vocabulary, in one file that imports nothing, so the table, the catalogue reader and the
// cost maths each import it instead of one another.

export interface ModelPrice {            // USD per token
  input: number; output: number; cacheRead: number;
  cacheWrite5m: number;                  // cache_creation_input_token_cost (else input * 1.25)
  cacheWrite1h: number;                  // cache_creation_input_token_cost_above_1hr, else 2 * input
  above200k: null | { input: number; output: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number };
  fast: number | null;                   // provider_specific_entry.fast when present
}
export interface CostInput { model: string; input: number; output: number; cacheCreate: number; cacheRead: number;
  cache1h: number /* part of cacheCreate */; webSearch: number; fast: boolean;
  geoUs: boolean /* usage.inference_geo "us": the token and web search cost x US_ONLY_MULTIPLIER */; costUSD: number | null }
export type CostMode = 'auto' | 'calculate';   // auto: a line's costUSD wins (decisions.md); calculate: always from tokens
