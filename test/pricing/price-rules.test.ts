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

const Fast = suite('fast multiplier per model');

// Opus before 4.6 had no fast mode: the table knows them at 1x (and the ccusage comparison's corpus writes such lines).
Fast('the catalogue first, else the dated table, else 2 as an estimate', () => {
  const plain = { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6 };
  const withFast = { ...plain, provider_specific_entry: { fast: 3 } };
  const names = ['claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-opus-5-5', 'claude-opus-6',
    'claude-fable-5-1', 'claude-fable-5-2', 'claude-fable-5-3', 'claude-fable-6', 'claude-opus-4-5', 'claude-3-opus-20240229', 'claude-sonnet-4-6',
    'claude-haiku-4-5', 'claude-mystery-1'];
  const t = PriceTable.fromCatalogue({ ...Object.fromEntries(names.map((n) => [n, plain])), 'claude-sonnet-5': withFast }, 'test');
  const want: Record<string, [number, boolean]> = {
    'claude-opus-4-6': [6, false], 'claude-opus-4-7': [6, false], 'claude-opus-4-8': [2, false], 'claude-opus-5': [2, false],
    'claude-opus-5-5': [2, false], 'claude-opus-6': [2, false], 'claude-fable-5-1': [2, true], 'claude-fable-5-2': [2, false],
    'claude-fable-5-3': [2, false], 'claude-fable-6': [2, false], 'claude-opus-4-5': [1, false], 'claude-sonnet-4-6': [2, true],
    'claude-haiku-4-5': [2, true], 'claude-mystery-1': [2, true], 'claude-sonnet-5': [3, false],
    'claude-3-opus-20240229': [1, false],
  };
  for (const [name, [multiplier, estimated]] of Object.entries(want)) {
    assert.equal(t.fastOf(name), { multiplier, estimated }, name);
    // 1000 input tokens x 1e-6, fast: the multiplier, never 1x
    near(t.cost(usage(name, { input: 1000, fast: true })).cost, 0.001 * multiplier, name);
    const entry = t.entries().find((e) => e.model === name)!;
    assert.equal([entry.fastMultiplier, entry.fastEstimated], [multiplier, estimated], `${name}: the price table says which`);
  }
  assert.is(t.fastOf('gemini-unknown'), null, 'an unpriced model has no fast rule');
  near(t.cost(usage('claude-fable-5-2-20270101', { input: 1000, fast: true })).cost, 0.002, 'a dated name keeps its table figure');
});

Fast.run();

const Served = suite('the served model prices the request');

Served('a bracketed suffix is ignored for lookup', () => {
  for (const name of ['claude-opus-4-6[1m]', 'claude-opus-4-6 [1m]', 'claude-opus-4-6[fast][1m]']) {
    assert.equal(real.lookup(name)?.key, 'claude-opus-4-6', name);
    near(real.cost(usage(name, { input: 1000, output: 1000, fast: true })).cost, 0.18, name);
  }
});

Served.run();
