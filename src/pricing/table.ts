// PriceTable: one loaded price catalogue plus the cost mode (its types in types.ts). cost() runs once per
// usage row, so model-name resolution is cached per name.
import { createHash } from 'node:crypto';
import type { PriceEntry } from '../shared/api-types.ts';
import { parseCatalogue, type CatalogueModel } from './catalogue.ts';
import { createLookup, type Lookup } from './lookup.ts';
import { fastRule, tokenCost, type FastRule } from './cost.ts';
import { BUILTIN_CATALOGUE, BUILTIN_SOURCE } from './builtin.ts';
import type { CostInput, CostMode, ModelPrice } from './types.ts';

interface Resolved { key: string; price: ModelPrice; fast: FastRule }

export class PriceTable {
  readonly source: string;
  readonly loadedAt: Date;
  readonly mode: CostMode;
  /** Changes iff any cost could change: a hash of every parsed entry plus the mode (the source's own check for news). */
  readonly fingerprint: string;
  /** Catalogue entries left out for lacking numeric input/output prices. */
  readonly skipped: number;
  private readonly models: Map<string, CatalogueModel>;
  private readonly find: Lookup;
  private readonly resolved = new Map<string, Resolved | null>();

  private constructor(models: Map<string, CatalogueModel>, skipped: number, source: string, mode: CostMode) {
    this.models = models;
    this.skipped = skipped;
    this.source = source;
    this.mode = mode;
    this.loadedAt = new Date();
    this.find = createLookup(models.keys());
    const hash = createHash('sha256').update(mode);
    for (const key of [...models.keys()].sort()) hash.update(`\n${key}\t${JSON.stringify(models.get(key)!.price)}`);
    this.fingerprint = hash.digest('hex').slice(0, 16);
  }

  /** LiteLLM's model_prices_and_context_window.json. Throws a TypeError when `json` holds no usable prices. */
  static fromCatalogue(json: unknown, source: string, mode: CostMode = 'auto'): PriceTable {
    const { models, skipped } = parseCatalogue(json, source);
    return new PriceTable(models, skipped, source, mode);
  }

  /** The generated snapshot in builtin.ts (every Claude model). */
  static builtin(mode: CostMode = 'auto'): PriceTable {
    return PriceTable.fromCatalogue(BUILTIN_CATALOGUE, BUILTIN_SOURCE, mode);
  }

  get size(): number {
    return this.models.size;
  }

  /**
   * Changes iff the cost of a line of one of these models could change: the mode, and the price each name resolves
   * to (a catalogue that only adds or changes other models leaves it as it was, so stored costs need no reprice).
   */
  costFingerprint(models: Iterable<string>): string {
    const hash = createHash('sha256').update(this.mode);
    for (const name of [...models].sort()) {
      const r = name.startsWith('<') ? null : this.resolve(name);
      hash.update(`\n${name}\t${r ? `${JSON.stringify(r.price)}\t${r.fast.multiplier}` : '-'}`);
    }
    return `models:${hash.digest('hex').slice(0, 16)}`;
  }

  lookup(model: string): { key: string; price: ModelPrice } | null {
    const r = this.resolve(model);
    return r ? { key: r.key, price: r.price } : null;
  }

  /** The fast-mode multiplier a model's fast entries are priced at, and whether it is an estimate; null: unpriced. */
  fastOf(model: string): FastRule | null {
    return this.resolve(model)?.fast ?? null;
  }

  cost(u: CostInput): { cost: number; priced: boolean } {
    if (u.model.startsWith('<')) return { cost: 0, priced: true };
    if (this.mode === 'auto' && u.costUSD !== null && Number.isFinite(u.costUSD) && u.costUSD >= 0) {
      return { cost: u.costUSD, priced: true };
    }
    const r = this.resolve(u.model);
    if (!r) return { cost: 0, priced: false };
    return { cost: tokenCost(r.price, u, r.fast.multiplier), priced: true };
  }

  entries(): PriceEntry[] {
    const out: PriceEntry[] = [];
    for (const [key, m] of this.models) {
      if (key.startsWith('anthropic/') || key.startsWith('claude')) out.push({ ...m.entry });
    }
    return out.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  }

  private resolve(model: string): Resolved | null {
    let r = this.resolved.get(model);
    if (r === undefined) {
      const key = this.find(model);
      const price = key === null ? undefined : this.models.get(key)?.price;
      r = key !== null && price ? { key, price, fast: fastRule(price.fast, model) } : null;
      this.resolved.set(model, r);
    }
    return r;
  }
}
