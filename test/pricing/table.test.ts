// PriceTable: catalogue parsing, every cost rule (expected figures worked out by hand), lookup, fingerprint, entries().
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PriceTable } from '../../src/pricing/table.ts';
import type { CostInput } from '../../src/pricing/types.ts';

const FIXTURE = new URL('../../../shared/fixtures/prices/catalogue.json', import.meta.url);
const catalogue: unknown = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
const real = PriceTable.fromCatalogue(catalogue, 'fixture');

function usage(model: string, u: Partial<CostInput> = {}): CostInput {
  return { model, input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, fast: false, geoUs: false, costUSD: null, ...u };
}

function near(actual: number, expected: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what} expected ${expected}, got ${actual}`);
}

function costOf(table: PriceTable, model: string, u: Partial<CostInput> = {}): number {
  const r = table.cost(usage(model, u));
  assert.ok(r.priced, `${model} should be priced`);
  return r.cost;
}

// ---------------------------------------------------------------------------------------------
const Catalogue = suite('catalogue');

Catalogue('skips and counts entries without numeric input/output prices', () => {
  const t = PriceTable.fromCatalogue(
    {
      sample_spec: { input_cost_per_token: 0, output_cost_per_token: 0 },
      'claude-ok': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 },
      'claude-string': { input_cost_per_token: '1e-6', output_cost_per_token: 2e-6 },
      'claude-no-output': { input_cost_per_token: 1e-6 },
      'image-model': { output_cost_per_image: 0.04 },
      'claude-null': null,
      'claude-array': [1, 2],
      'claude-negative': { input_cost_per_token: -1, output_cost_per_token: 2e-6 },
    },
    'test',
  );
  assert.is(t.size, 1);
  assert.is(t.skipped, 7);
  assert.is(t.lookup('claude-ok')?.key, 'claude-ok');
  assert.is(t.lookup('claude-string'), null);
});

Catalogue('the fixture parses with nothing skipped', () => {
  assert.is(real.size, 646);
  assert.is(real.skipped, 0);
});

Catalogue('rejects what is not a catalogue with a clear TypeError', () => {
  for (const bad of [null, 'x', 42, [1, 2], {}, { sample_spec: { input_cost_per_token: 1, output_cost_per_token: 1 } }]) {
    assert.throws(() => PriceTable.fromCatalogue(bad, 'bad.json'), (e: unknown) => e instanceof TypeError && /bad\.json/.test(e.message));
  }
});

Catalogue('fills missing cache prices from the input price', () => {
  const t = PriceTable.fromCatalogue({ 'claude-bare-1': { input_cost_per_token: 2e-6, output_cost_per_token: 1e-5 } }, 'test');
  const p = t.lookup('claude-bare-1')!.price;
  near(p.cacheRead, 2e-7, 'read = 0.1 x input');
  near(p.cacheWrite5m, 2.5e-6, '5m write = 1.25 x input');
  near(p.cacheWrite1h, 4e-6, '1h write = 2 x input');
  assert.is(p.above200k, null);
  assert.is(p.fast, null);
});

// ---------------------------------------------------------------------------------------------
const Cost = suite('cost rules');

Cost('base prices (claude-sonnet-4-5: in $3, out $15, read $0.30, 5m write $3.75 per MTok)', () => {
  // 1000 x 3e-6 = 0.003; 500 x 15e-6 = 0.0075; 10000 x 3e-7 = 0.003; 2000 x 3.75e-6 = 0.0075 -> 0.021
  near(costOf(real, 'claude-sonnet-4-5', { input: 1000, output: 500, cacheRead: 10_000, cacheCreate: 2000 }), 0.021);
});

Cost('5-minute vs 1-hour cache writes', () => {
  // cacheCreate 3000 of which 1000 are 1h: 2000 x 3.75e-6 = 0.0075 + 1000 x 6e-6 = 0.006 -> 0.0135
  near(costOf(real, 'claude-sonnet-4-5', { cacheCreate: 3000, cache1h: 1000 }), 0.0135);
  // all 1h: 3000 x 6e-6 = 0.018
  near(costOf(real, 'claude-sonnet-4-5', { cacheCreate: 3000, cache1h: 3000 }), 0.018);
  // a 1h count above cacheCreate is clamped to it: still 3000 x 6e-6 = 0.018
  near(costOf(real, 'claude-sonnet-4-5', { cacheCreate: 3000, cache1h: 5000 }), 0.018);
});

Cost('1-hour writes fall back to 2x input without cache_creation_input_token_cost_above_1hr', () => {
  const t = PriceTable.fromCatalogue(
    { 'claude-test-1': { input_cost_per_token: 2e-6, output_cost_per_token: 1e-5, cache_creation_input_token_cost: 2.5e-6 } },
    'test',
  );
  // 1000 x (2 x 2e-6) = 0.004; 500 5m x 2.5e-6 = 0.00125 -> 0.00525
  near(costOf(t, 'claude-test-1', { cacheCreate: 1500, cache1h: 1000 }), 0.00525);
});

Cost('long context: over 200,000 input+read+write tokens every token uses the above-200k prices', () => {
  // 150000 + 40000 + 10001 = 200001 > 200000 -> in $6, out $22.50, read $0.60, 5m $7.50, 1h 2 x $6 = $12 per MTok
  // 150000 x 6e-6 = 0.9; 1000 x 22.5e-6 = 0.0225; 40000 x 6e-7 = 0.024; 10000 x 7.5e-6 = 0.075; 1 x 12e-6 = 0.000012
  // -> 1.021512
  near(
    costOf(real, 'claude-sonnet-4-5', { input: 150_000, output: 1000, cacheRead: 40_000, cacheCreate: 10_001, cache1h: 1 }),
    1.021512,
  );
});

Cost('long context: exactly 200,000 tokens keeps the base prices', () => {
  // 150000 x 3e-6 = 0.45; 1000 x 15e-6 = 0.015; 40000 x 3e-7 = 0.012; 10000 x 3.75e-6 = 0.0375 -> 0.5145
  near(costOf(real, 'claude-sonnet-4-5', { input: 150_000, output: 1000, cacheRead: 40_000, cacheCreate: 10_000 }), 0.5145);
  // output does not count towards the threshold: 200000 x 3e-6 = 0.6; 5000 x 15e-6 = 0.075 -> 0.675
  near(costOf(real, 'claude-sonnet-4-5', { input: 200_000, output: 5000 }), 0.675);
});

Cost('long context: a model without above-200k prices keeps its prices', () => {
  // claude-opus-4-6 has none: 300000 x 5e-6 = 1.5; 1000 x 25e-6 = 0.025 -> 1.525
  near(costOf(real, 'claude-opus-4-6', { input: 300_000, output: 1000 }), 1.525);
});

Cost('long context: a kind without its own above-200k price keeps its base price', () => {
  const t = PriceTable.fromCatalogue(
    {
      'claude-test-2': {
        input_cost_per_token: 1e-6,
        output_cost_per_token: 1e-5,
        cache_read_input_token_cost: 1e-7,
        cache_creation_input_token_cost: 1.25e-6,
        cache_creation_input_token_cost_above_1hr: 2e-6,
        input_cost_per_token_above_200k_tokens: 2e-6,
      },
    },
    'test',
  );
  // 210000 input tokens: input 2e-6 (long), output 1e-5 (base), read 1e-7 (base), 5m 1.25e-6 (base), 1h 2 x 2e-6 = 4e-6
  // 200000 x 2e-6 = 0.4; 1000 x 1e-5 = 0.01; 5000 x 1e-7 = 0.0005; 4000 x 1.25e-6 = 0.005; 1000 x 4e-6 = 0.004 -> 0.4195
  near(costOf(t, 'claude-test-2', { input: 200_000, output: 1000, cacheRead: 5000, cacheCreate: 5000, cache1h: 1000 }), 0.4195);
});

Cost('fast mode: catalogue multiplier (opus-4-6 x6, opus-4-8 x2), sonnet x2 as an estimate (issue 32 rule 4)', () => {
  // opus-4-6: 1000 x 5e-6 + 1000 x 25e-6 = 0.03; fast x6 -> 0.18
  near(costOf(real, 'claude-opus-4-6', { input: 1000, output: 1000 }), 0.03);
  near(costOf(real, 'claude-opus-4-6', { input: 1000, output: 1000, fast: true }), 0.18);
  // opus-4-8 (provider_specific_entry.fast = 2): 0.03 x 2 -> 0.06
  near(costOf(real, 'claude-opus-4-8', { input: 1000, output: 1000, fast: true }), 0.06);
  // sonnet-4-5 has no fast entry and no dated multiplier: 1000 x 3e-6 + 1000 x 15e-6 = 0.018, x2 (an estimate)
  near(costOf(real, 'claude-sonnet-4-5', { input: 1000, output: 1000, fast: true }), 0.036);
});

Cost('fast mode: defaults without a catalogue multiplier (1 for opus before 4.6, 6 for 4.6/4.7, 2 for 4.8 and later, else 2 estimated)', () => {
  const plain = { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6 };
  const names = ['claude-opus-4-5', 'claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-4-9', 'claude-opus-5', 'claude-opus4-6', 'claude-sonnet-4-6', 'claude-opus-4-20250514'];
  const t = PriceTable.fromCatalogue(Object.fromEntries(names.map((n) => [n, plain])), 'test');
  // 1000 input tokens x 1e-6 = 0.001, times the multiplier
  const expected: Record<string, number> = {
    'claude-opus-4-5': 0.001,
    'claude-opus-4-6': 0.006,
    'claude-opus-4-7': 0.006,
    'claude-opus-4-8': 0.002,
    'claude-opus-4-9': 0.002,
    'claude-opus-5': 0.002,
    'claude-opus4-6': 0.006,
    'claude-sonnet-4-6': 0.002,
    'claude-opus-4-20250514': 0.001,
  };
  for (const n of names) near(costOf(t, n, { input: 1000, fast: true }), expected[n]!, n);
  // a dated or dotted name of a later Opus reaches its key and keeps the default: 0.001 x 2
  near(costOf(t, 'claude-opus-4.8', { input: 1000, fast: true }), 0.002, 'claude-opus-4.8');
});

Cost('web search: $0.01 each, added after the fast multiplier', () => {
  // opus-4-6 fast: 0.03 x 6 = 0.18; + 2 x 0.01 -> 0.2
  near(costOf(real, 'claude-opus-4-6', { input: 1000, output: 1000, fast: true, webSearch: 2 }), 0.2);
  // searches alone: 3 x 0.01 = 0.03
  near(costOf(real, 'claude-sonnet-4-5', { webSearch: 3 }), 0.03);
});

Cost("costUSD wins in mode 'auto' and is ignored in mode 'calculate'", () => {
  const u = { input: 1000, output: 1000, costUSD: 1.23 };
  near(costOf(real, 'claude-sonnet-4-5', u), 1.23);
  // calculate: 1000 x 3e-6 + 1000 x 15e-6 = 0.018
  const calc = PriceTable.fromCatalogue(catalogue, 'fixture', 'calculate');
  near(costOf(calc, 'claude-sonnet-4-5', u), 0.018);
  // a line's own cost needs no catalogue entry
  assert.equal(real.cost(usage('some-future-model', u)), { cost: 1.23, priced: true });
  assert.equal(calc.cost(usage('some-future-model', u)), { cost: 0, priced: false });
  // a zero costUSD is a real zero
  assert.equal(real.cost(usage('claude-sonnet-4-5', { ...u, costUSD: 0 })), { cost: 0, priced: true });
});

Cost('<synthetic> costs 0 and counts as priced', () => {
  assert.equal(real.cost(usage('<synthetic>', { input: 1000, output: 1000, webSearch: 1, costUSD: 5 })), { cost: 0, priced: true });
});

Cost('a model that matches nothing costs 0 and is not priced', () => {
  assert.equal(real.cost(usage('gemini-unknown', { input: 1000, output: 1000, webSearch: 1 })), { cost: 0, priced: false });
  assert.equal(real.cost(usage('claude-opus-4-9', { input: 1000 })), { cost: 0, priced: false });
});

// ---------------------------------------------------------------------------------------------
const Lookup = suite('lookup');

const p = (input: number) => ({ input_cost_per_token: input, output_cost_per_token: input * 5 });
const small = PriceTable.fromCatalogue(
  {
    'claude-sonnet-4': p(3e-6),
    'claude-opus-4': p(15e-6),
    'claude-opus-4-6': p(5e-6),
    'anthropic/claude-x-1': p(1e-6),
    'claude-y-1': p(2e-6),
    'anthropic/claude-y-1': p(9e-6),
    'azure/claude-z-1': p(4e-6),
    'bedrock/claude-w-2': p(4e-6),
    'claude-4.5-haiku': p(1e-6),
  },
  'test',
);
const keyOf = (t: PriceTable, name: string) => t.lookup(name)?.key ?? null;

Lookup('exact key', () => {
  assert.is(keyOf(real, 'claude-opus-4-6'), 'claude-opus-4-6');
  assert.is(keyOf(real, 'us.anthropic.claude-opus-4-7'), 'us.anthropic.claude-opus-4-7');
  assert.is(keyOf(small, 'azure/claude-z-1'), 'azure/claude-z-1');
});

Lookup('anthropic/ prefix', () => {
  assert.is(keyOf(small, 'claude-x-1'), 'anthropic/claude-x-1');
  assert.is(keyOf(small, 'anthropic/claude-sonnet-4-20250514'), 'claude-sonnet-4');
});

Lookup("'.' and '@' replaced by '-'", () => {
  assert.is(keyOf(real, 'claude-sonnet-4.5'), 'claude-sonnet-4-5');
  assert.is(keyOf(real, 'claude-sonnet-4-5@20250929'), 'claude-sonnet-4-5-20250929');
  // a dotted catalogue key is reached from the dashed name, and from a dated one
  assert.is(keyOf(small, 'claude-4-5-haiku'), 'claude-4.5-haiku');
  assert.is(keyOf(small, 'claude-4-5-haiku-20251001'), 'claude-4.5-haiku');
});

Lookup('an 8-digit date after a key does not block the match', () => {
  assert.is(keyOf(small, 'claude-sonnet-4-20250514'), 'claude-sonnet-4');
  assert.is(keyOf(small, 'claude-sonnet-4@20250514'), 'claude-sonnet-4');
  assert.is(keyOf(small, 'claude-opus-4-20250514'), 'claude-opus-4');
  assert.is(keyOf(real, 'claude-sonnet-4-6-20260101'), 'claude-sonnet-4-6');
  // a non-numeric suffix does not block either
  assert.is(keyOf(real, 'claude-haiku-4-5-20251001-v1:0'), 'claude-haiku-4-5-20251001');
});

Lookup('a version number after a key blocks the match', () => {
  assert.is(keyOf(small, 'claude-opus-4-1'), null);
  assert.is(keyOf(small, 'claude-opus-4.1'), null);
  assert.is(keyOf(small, 'claude-opus-4-7-20260416'), null);
  assert.is(keyOf(small, 'claude-sonnet-4-5'), null);
  assert.is(keyOf(small, 'claude-opus-4-6-20260205'), 'claude-opus-4-6');
});

Lookup('the longest matching key wins', () => {
  assert.is(keyOf(small, 'claude-opus-4-6-preview'), 'claude-opus-4-6');
  assert.is(keyOf(real, 'claude-opus-4-1-20990101'), 'claude-opus-4-1');
});

Lookup('never a loose substring', () => {
  assert.is(keyOf(small, 'my-claude-sonnet-4'), null);
  assert.is(keyOf(small, 'claude-opus-4-60'), null);
  assert.is(keyOf(small, 'claude-sonnet-40'), null);
  assert.is(keyOf(small, 'claude-sonnet'), null);
  assert.is(keyOf(small, 'xclaude-opus-4'), null);
});

Lookup('boundary matches use plain and anthropic/ keys only; plain wins', () => {
  assert.is(keyOf(small, 'claude-z-1-20250101'), null);
  assert.is(keyOf(small, 'claude-w-2'), null);
  assert.is(keyOf(small, 'claude-y-1-20250101'), 'claude-y-1');
  assert.is(keyOf(small, 'claude-x-1-20250101'), 'anthropic/claude-x-1');
});

Lookup('repeated lookups give the same answer (cached per name)', () => {
  const a = small.lookup('claude-sonnet-4-20250514');
  const b = small.lookup('claude-sonnet-4-20250514');
  assert.ok(a && b && a.price === b.price && a.key === b.key);
  assert.is(small.lookup('claude-opus-4-1'), null);
  assert.is(small.lookup('claude-opus-4-1'), null);
});

// ---------------------------------------------------------------------------------------------
const Table = suite('fingerprint and entries');

Table('fingerprint changes iff a price or the mode changes', () => {
  const base = { 'claude-a-1': { input_cost_per_token: 1e-6, output_cost_per_token: 5e-6, max_input_tokens: 200_000 } };
  const same = PriceTable.fromCatalogue(structuredClone(base), 'other source');
  const a = PriceTable.fromCatalogue(base, 'test');
  assert.is(a.fingerprint, same.fingerprint);
  assert.is.not(a.fingerprint, PriceTable.fromCatalogue(base, 'test', 'calculate').fingerprint);
  const dearer = { 'claude-a-1': { ...base['claude-a-1'], output_cost_per_token: 6e-6 } };
  assert.is.not(a.fingerprint, PriceTable.fromCatalogue(dearer, 'test').fingerprint);
  const fast = { 'claude-a-1': { ...base['claude-a-1'], provider_specific_entry: { fast: 2 } } };
  assert.is.not(a.fingerprint, PriceTable.fromCatalogue(fast, 'test').fingerprint);
  const more = { ...base, 'gpt-x': { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6 } };
  assert.is.not(a.fingerprint, PriceTable.fromCatalogue(more, 'test').fingerprint);
  const ctx = { 'claude-a-1': { ...base['claude-a-1'], max_input_tokens: 1_000_000 } };
  assert.is(a.fingerprint, PriceTable.fromCatalogue(ctx, 'test').fingerprint);
});

Table('costFingerprint changes iff the price one of the given names resolves to, or the mode, changes', () => {
  const base = { 'claude-a-1': { input_cost_per_token: 1e-6, output_cost_per_token: 5e-6 } };
  const names = ['claude-a-1', 'claude-a-1-20260101', '<synthetic>'];
  const a = PriceTable.fromCatalogue(base, 'test');
  const of = (catalogue: Record<string, unknown>, mode?: 'calculate') => PriceTable.fromCatalogue(catalogue, 'test', mode).costFingerprint(names);
  assert.is(a.costFingerprint(names), of(structuredClone(base)));
  assert.is(a.costFingerprint(names), a.costFingerprint([...names].reverse()), 'in any order');
  // Other models added or changed: the table's fingerprint changes, the costs of these names do not.
  const more = { ...base, 'gpt-x': { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6 }, 'claude-b-2': { input_cost_per_token: 9e-6, output_cost_per_token: 9e-6 } };
  assert.is.not(a.fingerprint, PriceTable.fromCatalogue(more, 'test').fingerprint);
  assert.is(a.costFingerprint(names), of(more));
  assert.is.not(a.costFingerprint(names), of({ 'claude-a-1': { ...base['claude-a-1'], output_cost_per_token: 6e-6 } }), 'a price');
  assert.is.not(a.costFingerprint(names), of({ 'claude-a-1': { ...base['claude-a-1'], provider_specific_entry: { fast: 2 } } }), 'the fast multiplier');
  assert.is.not(a.costFingerprint(names), of(base, 'calculate'), 'the mode');
  // A dated name priced by its prefix key until the catalogue has the dated key itself.
  assert.is.not(a.costFingerprint(names), of({ ...base, 'claude-a-1-20260101': { input_cost_per_token: 2e-6, output_cost_per_token: 5e-6 } }), 'a name resolving to another key');
  assert.is.not(a.costFingerprint(names), of({ 'gpt-x': { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6 } }), 'a name no longer priced');
  assert.is.not(a.costFingerprint(names), a.costFingerprint([...names, 'claude-new-9']), 'another name');
});

Table('source, mode and loadedAt', () => {
  const before = Date.now();
  const t = PriceTable.fromCatalogue(catalogue, 'https://example.test/prices.json', 'calculate');
  assert.is(t.source, 'https://example.test/prices.json');
  assert.is(t.mode, 'calculate');
  assert.ok(t.loadedAt.getTime() >= before && t.loadedAt.getTime() <= Date.now());
  assert.is(real.mode, 'auto');
});

Table('entries(): only anthropic/ and claude* names, with the catalogue figures', () => {
  const t = PriceTable.fromCatalogue(
    {
      'gpt-4o': p(2.5e-6),
      'anthropic.claude-v2': p(8e-6),
      'openrouter/anthropic/claude-3-opus': p(1.5e-5),
      'anthropic/claude-x-1': p(1e-6),
      'claude-sonnet-4-5': (catalogue as Record<string, unknown>)['claude-sonnet-4-5'],
      'claude-opus-4-6': (catalogue as Record<string, unknown>)['claude-opus-4-6'],
    },
    'test',
  );
  const entries = t.entries();
  assert.equal(entries.map((e) => e.model), ['anthropic/claude-x-1', 'claude-opus-4-6', 'claude-sonnet-4-5']);
  assert.equal(entries[1], {
    model: 'claude-opus-4-6',
    inputCostPerToken: 5e-6,
    outputCostPerToken: 2.5e-5,
    cacheCreationInputTokenCost: 6.25e-6,
    cacheCreationInputTokenCostAbove1hr: 1e-5,
    cacheReadInputTokenCost: 5e-7,
    inputCostPerTokenAbove200k: null,
    outputCostPerTokenAbove200k: null,
    fastMultiplier: 6,
    fastEstimated: false,
  });
  assert.is(entries[2]!.inputCostPerTokenAbove200k, 6e-6);
  assert.is(entries[2]!.outputCostPerTokenAbove200k, 2.25e-5);
  assert.is(entries[0]!.cacheCreationInputTokenCost, null);
  // the fixture: every claude* key (no anthropic/ keys in it), nothing else
  const names = real.entries().map((e) => e.model);
  assert.ok(names.length > 50 && names.every((n) => n.startsWith('claude')));
});

Catalogue.run();
Cost.run();
Lookup.run();
Table.run();
