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
  fastMultiplier: number | null;
}

export interface Pricing {
  source: string;
  loadedAt: string;
  models: PriceEntry[];
}
