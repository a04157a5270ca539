// GET /api/pricing: the price catalogue in use and where it came from. Re-exported by api-types.ts.

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
