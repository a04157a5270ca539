// itemise: a receipt line of a group of requests is what PriceTable.cost gives the requests one by one (the same rules
// spelt out per token kind), for every mix the index groups by: fast, US-only, advisor, long context, own costUSD in
// both modes, unpriced and `<synthetic>` models; and each rule's figures are what the hand-worked prices give.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { itemise, type ReceiptGroup } from '../../src/pricing/itemise.ts';
import { LONG_CONTEXT_THRESHOLD } from '../../src/pricing/cost.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { CostInput, CostMode } from '../../src/pricing/types.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { sequence } from '../helpers/sequence.ts';

const catalogue: unknown = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8'));
const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

type Req = Omit<CostInput, 'cacheCreate' | 'cache1h'> & { cache5m: number; cache1h: number; webFetch: number; advisor: boolean };

/** Requests of every kind, with token counts from a fixed sequence (no randomness: a failure reproduces). */
function requests(): Req[] {
  const models = ['claude-sonnet-4-5-20250929', 'claude-opus-4-6', 'claude-haiku-4-5-20251001', 'claude-mystery-9', '<synthetic>'];
  const out: Req[] = [];
  const next = sequence(7);
  for (let i = 0; i < 200; i++) {
    const long = i % 5 === 0;
    out.push({
      model: models[i % models.length]!, input: long ? 150_000 + next(100_000) : next(5000), output: next(8000),
      cacheRead: long ? 60_000 + next(10_000) : next(50_000), cache5m: next(3000), cache1h: i % 3 === 0 ? next(4000) : 0,
      webSearch: i % 7 === 0 ? next(4) : 0, fast: i % 4 === 1, geoUs: i % 9 < 3, costUSD: i % 6 === 2 ? next(1000) / 1000 : null,
      webFetch: i % 8 === 0 ? next(5) : 0, advisor: i % 11 === 4,
    });
  }
  return out;
}

/** The requests grouped as the receipt's SQL groups them (model, fast, own costUSD, over 200k), with their stored costs. */
function groupsOf(table: PriceTable, reqs: Req[]): ReceiptGroup[] {
  const by = new Map<string, ReceiptGroup>();
  for (const r of reqs) {
    const u: CostInput = { ...r, cacheCreate: r.cache5m + r.cache1h };
    const own = r.costUSD !== null;
    const long = r.input + r.cacheRead + u.cacheCreate > LONG_CONTEXT_THRESHOLD;
    const key = `${r.model}|${r.fast}|${r.geoUs}|${r.advisor}|${own}|${long}`;
    const g = by.get(key) ?? { model: r.model, fast: r.fast, geo: r.geoUs, advisor: r.advisor, ownCost: own, longContext: long, messages: 0,
      input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, webFetch: 0, costUSD: 0, stored: 0 };
    g.messages++;
    g.input += r.input;
    g.output += r.output;
    g.cacheCreate += u.cacheCreate;
    g.cacheRead += r.cacheRead;
    g.cache1h += r.cache1h;
    g.webSearch += r.webSearch;
    g.webFetch += r.webFetch;
    g.costUSD += r.costUSD ?? 0;
    g.stored += table.cost(u).cost;
    by.set(key, g);
  }
  return [...by.values()];
}

const t = suite('itemise');

for (const mode of ['auto', 'calculate'] as CostMode[]) {
  t(`${mode}: each line's amount is the sum of PriceTable.cost over its requests`, () => {
    const table = PriceTable.fromCatalogue(catalogue, 'fixture', mode);
    const groups = groupsOf(table, requests());
    const { lines } = itemise(table, groups);
    for (const l of lines) near(l.amount, l.stored, `${mode} ${l.model} ${l.pricing} fast=${l.fast} us=${l.usOnly} long=${l.longContext}`);
    const { rules } = itemise(table, groups);
    assert.equal(rules.map((r) => r.rule).filter((r) => r !== 'costUSD'), ['longContext', 'fast', 'usOnly', 'cache1h', 'advisor', 'webSearch', 'webFetch', 'unpriced']);
    near(lines.reduce((s, l) => s + l.amount, 0), groups.reduce((s, g) => s + g.stored, 0), `${mode} total`);
    assert.equal(new Set(lines.map((l) => l.pricing)), new Set(mode === 'auto' ? ['catalogue', 'costUSD', 'unpriced', 'free'] : ['catalogue', 'unpriced', 'free']));
    // Lines are the dearest first.
    assert.equal(lines.map((l) => l.amount), [...lines.map((l) => l.amount)].sort((a, b) => b - a));
  });
}

t('the rules of one group by hand: sonnet-4-5 over 200k, fast, US-only, 1-hour writes, web search and fetch', () => {
  const table = PriceTable.fromCatalogue(catalogue, 'fixture');
  const g: ReceiptGroup = { model: 'claude-sonnet-4-5-20250929', fast: true, geo: true, advisor: false, ownCost: false, longContext: true,
    messages: 1, input: 300_000, output: 1000, cacheCreate: 2000, cacheRead: 0, cache1h: 1000, webSearch: 2, webFetch: 4, costUSD: 0, stored: 0 };
  const { lines, rules } = itemise(table, [g]);
  const l = lines[0]!;
  // Long-context prices per token: input 6e-6, output 22.5e-6, 5-minute write 7.5e-6; the 1-hour write twice the long input.
  assert.equal(l.items.map((i) => [i.kind, i.tokens, i.unitPrice]), [
    ['input', 300_000, 6e-6], ['output', 1000, 2.25e-5], ['cacheWrite5m', 1000, 7.5e-6], ['cacheWrite1h', 1000, 1.2e-5], ['webSearch', 2, 0.01], ['webFetch', 4, 0]]);
  const base = 300_000 * 6e-6 + 1000 * 2.25e-5 + 1000 * 7.5e-6 + 1000 * 1.2e-5;
  // sonnet-4-5 has no fast multiplier in the catalogue nor in the dated table: 2, an estimate.
  assert.equal(l.multipliers.map((m) => [m.rule, m.factor, m.estimated]), [['fast', 2, true], ['usOnly', 1.1, false]]);
  near(l.multipliers[0]!.added, base, 'fast added');
  near(l.multipliers[1]!.added, (base * 2 + 0.02) * 0.1, 'US-only on the tokens × fast and the web searches');
  near(l.amount, (base * 2 + 0.02) * 1.1, 'amount');
  const by = Object.fromEntries(rules.map((r) => [r.rule, [r.tokens, r.added]]));
  near(by.longContext![1]!, 300_000 * 3e-6 + 1000 * 7.5e-6 + 1000 * 3.75e-6 + 1000 * 6e-6, 'long context added');
  assert.is(by.longContext![0], 303_000);
  near(by.cache1h![1]!, 1000 * (1.2e-5 - 7.5e-6), '1-hour writes against 5-minute ones, both long');
  assert.equal(by.webSearch, [2, 0.02]);
  assert.equal(by.webFetch, [4, 0]);
  near(by.usOnly![1]!, (base * 2 + 0.02) * 0.1, 'US-only rule');
});

t.run();
