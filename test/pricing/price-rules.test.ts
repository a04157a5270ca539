// Issue 32's price rules in the cost maths (expected figures worked out by hand from the fixture catalogue's prices):
// US-only inference x 1.1 on every token kind and on web search, never on a line's own costUSD; web fetches free.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PriceTable } from '../../src/pricing/table.ts';
import type { CostInput } from '../../src/pricing/types.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const real = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as unknown, 'fixture');
const usage = (model: string, u: Partial<CostInput> = {}): CostInput =>
  ({ model, input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, fast: false, geoUs: false, costUSD: null, ...u });
const near = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: expected ${expected}, got ${actual}`);

const Geo = suite('US-only inference');

Geo('x 1.1 on every token kind and on web search', () => {
  // sonnet-4-6: 1000 in x 3e-6 + 500 out x 15e-6 + 2000 5m x 3.75e-6 + 1000 1h x 6e-6 + 4000 read x 0.3e-6 = 0.0252
  const u = { input: 1000, output: 500, cacheCreate: 3000, cache1h: 1000, cacheRead: 4000, webSearch: 2 };
  near(real.cost(usage('claude-sonnet-4-6', u)).cost, 0.0252 + 0.02, 'global');
  near(real.cost(usage('claude-sonnet-4-6', { ...u, geoUs: true })).cost, (0.0252 + 0.02) * 1.1, 'US-only');
});

Geo('with fast mode and long context: the whole request x 1.1', () => {
  // opus-4-6 fast x 6: (1000 x 5e-6 + 1000 x 25e-6) x 6 = 0.18, + 1 search = 0.19; x 1.1 = 0.209
  near(real.cost(usage('claude-opus-4-6', { input: 1000, output: 1000, fast: true, webSearch: 1, geoUs: true })).cost, 0.209, 'fast');
  // sonnet-4-5 past 200k: 250000 x 6e-6 + 1000 x 22.5e-6 = 1.5225; x 1.1
  near(real.cost(usage('claude-sonnet-4-5', { input: 250_000, output: 1000, geoUs: true })).cost, 1.5225 * 1.1, 'long context');
});

Geo('a line\'s own costUSD is final: not multiplied', () => {
  assert.equal(real.cost(usage('claude-sonnet-4-6', { input: 1000, costUSD: 0.25, geoUs: true })), { cost: 0.25, priced: true });
  const calc = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as unknown, 'fixture', 'calculate');
  near(calc.cost(usage('claude-sonnet-4-6', { input: 1000, costUSD: 0.25, geoUs: true })).cost, 0.003 * 1.1, 'calculate mode prices the tokens');
});

Geo.run();
