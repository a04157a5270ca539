// GET /api/pricing: the price catalogue in use and where it came from, and the overview's priced request counts and
// estimates. Re-exported by api-types.ts.

/** Server tool requests of usage entries: a web search costs $0.01, a web fetch nothing (decisions.md). */
export interface ServerRequests {
  webSearchRequests: number;
  webFetchRequests: number;
}

/** A model whose fast entries were priced at an estimated multiplier: neither the catalogue nor the dated table knows it. */
export interface EstimatedFastModel {
  model: string;
  /** Its fast messages in the range (entries with their own costUSD left out: their cost is theirs). */
  messages: number;
  cost: number;
  /** The estimate applied (2). */
  multiplier: number;
}

export interface PriceEntry {
  model: string;
  inputCostPerToken: number;
  outputCostPerToken: number;
  cacheCreationInputTokenCost: number | null;
  cacheCreationInputTokenCostAbove1hr: number | null;
  cacheReadInputTokenCost: number | null;
  inputCostPerTokenAbove200k: number | null;
  outputCostPerTokenAbove200k: number | null;
  /** What a fast entry costs x: the catalogue's `provider_specific_entry.fast`, else the project's dated table, else 2. */
  fastMultiplier: number;
  /** Neither the catalogue nor the dated table knows the model's multiplier: 2 is an estimate. */
  fastEstimated: boolean;
}

export interface Pricing {
  source: string;
  loadedAt: string;
  models: PriceEntry[];
}
