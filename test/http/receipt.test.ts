// GET /api/receipt (issue 32 "Receipts"): over the shared fixture transcripts and a hand-written history that touches
// every price rule, each receipt adds up to the figure it explains (the overview's cost, a session's) to the cent, in
// several ranges and scopes, and each line is its tokens × the catalogue's unit prices, then its multipliers.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview, Receipt, ReceiptLine, SessionDetail, SessionList } from '../../src/shared/api-types.ts';
import type { IndexDb } from '../../src/index-db/types.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { FIXTURE_CONFIG_DIR, PRICES_FILE } from '../helpers/paths.ts';
import { RECEIPT_OTHER, RECEIPT_PROJECT, writeReceiptHistory } from '../helpers/receipt-history.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

type CatalogueEntry = Record<string, number | undefined>;
const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, CatalogueEntry>;

// The server's clock: now, or, in the first hours of a local day, an hour before it began, so that "today" holds the
// history's entries of 2-5 hours ago whatever the hour the test runs at.
const NOW = ((at: number): number => (new Date(at).getHours() < 6 ? at - (new Date(at).getHours() + 1) * 3_600_000 : at))(Date.now());
const tmp = tempDir('receipt-');
let index: IndexDb;
let s: TestServer;

const t = suite('/api/receipt');
t.before(async () => {
  const projects = path.join(tmp.dir, 'projects');
  writeReceiptHistory(projects, NOW);
  index = await indexDir([path.join(FIXTURE_CONFIG_DIR, 'projects'), projects]);
  s = await startServer({ index, now: () => NOW });
});
t.after(async () => {
  await s.close();
  index.close();
  tmp.cleanup();
});

async function get<T>(url: string): Promise<T> {
  const r = await s.request(url);
  assert.is(r.status, 200, `${url}: ${r.text}`);
  return r.json<T>();
}

const cents = (usd: number): string => usd.toFixed(2);

/** The catalogue's unit price of an item (the long-context one on a long-context line), read from the file itself. */
function cataloguePrice(line: ReceiptLine, kind: string): number {
  const e = catalogue[line.priceKey!]!;
  const long = (name: string): number => (line.longContext ? e[`${name}_above_200k_tokens`]! : e[name]!);
  switch (kind) {
    case 'input': return long('input_cost_per_token');
    case 'output': return long('output_cost_per_token');
    case 'cacheRead': return long('cache_read_input_token_cost');
    case 'cacheWrite5m': return long('cache_creation_input_token_cost');
    case 'cacheWrite1h': return e.cache_creation_input_token_cost_above_1hr!;
    case 'webSearch': return 0.01;
    case 'webFetch': return 0;
    default: throw new Error(`unknown item ${kind}`);
  }
}

const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/** Every line adds up: tokens × the catalogue's unit price per item, the multipliers, the line's amount and its stored cost. */
function checkLines(r: Receipt, url: string): void {
  for (const line of r.lines) {
    const what = `${url} ${line.model} ${line.pricing}${line.fast ? ' fast' : ''}${line.longContext ? ' long' : ''}`;
    let items = 0;
    let tokenItems = 0;
    let web = 0;
    for (const item of line.items) {
      if (line.pricing === 'catalogue') {
        assert.is(item.unitPrice, cataloguePrice(line, item.kind), `${what} ${item.kind}`);
        near(item.amount, item.tokens * item.unitPrice!, `${what} ${item.kind} amount`);
      } else {
        assert.is(item.unitPrice, null, what);
        assert.is(item.amount, 0, what);
      }
      items += item.amount;
      if (item.kind === 'webSearch') web += item.amount;
      else if (item.kind !== 'webFetch') tokenItems += item.amount;
    }
    // Fast multiplies the token items; US-only then everything, web search included.
    let added = 0;
    let fast = 1;
    for (const m of line.multipliers) {
      if (m.rule === 'fast') fast = m.factor;
      near(m.added, m.rule === 'fast' ? tokenItems * (m.factor - 1) : (tokenItems * fast + web) * (m.factor - 1), `${what} ${m.rule}`);
      added += m.added;
    }
    assert.equal(line.multipliers.map((m) => m.rule), [...(line.fast && line.pricing === 'catalogue' ? ['fast'] : []), ...(line.usOnly && line.pricing === 'catalogue' ? ['usOnly'] : [])], what);
    near(line.amount, items + added + line.ownCost, `${what} amount`);
    if (line.pricing === 'unpriced' || line.pricing === 'free') assert.is(line.amount, 0, what);
    near(line.amount, line.stored, `${what} against its stored cost`);
  }
  assert.is(r.mismatch, null, url);
  near(r.computed, r.lines.reduce((a, l) => a + l.amount, 0), `${url} computed`);
  near(r.total, r.lines.reduce((a, l) => a + l.stored, 0), `${url} total`);
}

const RANGES = ['range=1', 'range=7', 'range=30', 'range=all', 'from=2026-02-01&to=2026-02-05'];
const SCOPES = ['', `&project=${RECEIPT_PROJECT}`, `&project=${RECEIPT_OTHER}`, '&project=sample-project'];

t('the receipt of each range and scope adds up to the overview cost to the cent', async () => {
  let nonEmpty = 0;
  for (const range of RANGES) {
    for (const scope of SCOPES) {
      const o = await get<Overview>(`/api/overview?${range}${scope}`);
      const r = await get<Receipt>(`/api/receipt?${range}${scope}`);
      const url = `${range}${scope}`;
      assert.equal(r.range, o.range, url);
      assert.is(r.project, o.project, url);
      assert.is(cents(r.total), cents(o.totals.cost), url);
      near(r.total, o.totals.cost, url);
      assert.is(r.messages, o.totals.messages, `${url} messages`);
      checkLines(r, url);
      if (r.total > 0) nonEmpty++;
    }
  }
  assert.ok(nonEmpty >= 12, `receipts with a cost: ${nonEmpty}`);
});

t('a session receipt adds up to the session view and to its row in the sessions list', async () => {
  for (const id of ['rcpt-a', 'rcpt-b', 'rcpt-c', '967e501d-aa48-4eab-a21f-b17058bd78f0']) {
    const detail = await get<SessionDetail>(`/api/sessions/${id}?range=all`);
    const r = await get<Receipt>(`/api/receipt?range=all&session=${id}`);
    assert.is(r.session, id);
    assert.ok(detail.cost > 0, id);
    assert.is(cents(r.total), cents(detail.cost), id);
    near(r.total, detail.cost, id);
    checkLines(r, id);
  }
  const list = await get<SessionList>('/api/sessions?range=7');
  const row = list.sessions.find((x) => x.id === 'rcpt-b');
  assert.ok(row, 'rcpt-b in the last 7 days');
  const r = await get<Receipt>('/api/receipt?range=7&session=rcpt-b');
  assert.is(cents(r.total), cents(row.cost));
  near(r.total, row.cost, 'rcpt-b row');
});

t('every rule of the hand-written history is itemised', async () => {
  const r = await get<Receipt>(`/api/receipt?range=all&project=${RECEIPT_PROJECT}`);
  const rules = Object.fromEntries(r.rules.map((x) => [x.rule, x]));
  assert.equal(Object.keys(rules).sort(), ['advisor', 'cache1h', 'costUSD', 'fast', 'longContext', 'unpriced', 'usOnly', 'webFetch', 'webSearch']);
  assert.is(rules.webSearch!.tokens, 4);
  near(rules.webSearch!.added, 0.04, 'web search');
  assert.equal([rules.webFetch!.tokens, rules.webFetch!.added], [2, 0]);
  // The US-only entry: sonnet-4-5's 800 in, 1,200 out, 30,000 cache read and one web search, and its advisor iteration
  // (the response's geo), each × 1.1.
  const us = r.lines.filter((l) => l.usOnly);
  assert.equal(us.map((l) => [l.model, l.advisor]).sort(), [['claude-opus-4-6', true], ['claude-sonnet-4-5-20250929', false]]);
  const advisorBase = 1500 * 5e-6 + 300 * 25e-6 + 8000 * 0.5e-6;
  near(rules.usOnly!.added, (800 * 3e-6 + 1200 * 15e-6 + 30_000 * 0.3e-6 + 0.01 + advisorBase) * 0.1, 'US-only added');
  // The advisor iteration: priced under its own model (opus-4-6), on top of its response.
  const advisor = r.lines.find((l) => l.advisor)!;
  assert.equal([advisor.model, advisor.tokens, advisor.fast, advisor.usOnly], ['claude-opus-4-6', 1500 + 300 + 8000, false, true]);
  near(advisor.amount, advisorBase * 1.1, 'advisor amount');
  assert.equal([rules.advisor!.tokens, rules.advisor!.added], [advisor.tokens, advisor.amount]);
  assert.is(rules.cache1h!.tokens, 3100);
  assert.is(rules.unpriced!.tokens, 700 + 700 + 9000);
  assert.is(rules.unpriced!.added, 0);
  near(rules.costUSD!.added, 0.4321, 'own costUSD');
  const fast = r.lines.filter((l) => l.fast);
  // One line for the requests on both sides of 200k: opus-4-6 has no long-context prices in the catalogue.
  assert.equal(fast.map((l) => [l.model, l.multipliers.map((m) => m.factor), l.longContext, l.messages]), [['claude-opus-4-6', [6], false, 2]]);
  const long = r.lines.find((l) => l.longContext);
  assert.is(long?.model, 'claude-sonnet-4-5-20250929');
  assert.is(long?.tokens, 150_000 + 4000 + 60_000 + 2000);
  assert.ok(rules.longContext!.added > 0);
  const unpriced = r.lines.find((l) => l.pricing === 'unpriced');
  assert.is(unpriced?.model, 'claude-mystery-9');
  assert.is(r.lines.find((l) => l.model === '<synthetic>')?.pricing, 'free');
});

t('a fast entry on a model without a known multiplier is priced at 2 and marked as an estimate', async () => {
  const r = await get<Receipt>(`/api/receipt?range=all&project=${RECEIPT_OTHER}`);
  const fast = r.lines.filter((l) => l.fast).map((l) => [l.model, l.multipliers.map((m) => [m.rule, m.factor, m.estimated])]).sort();
  assert.equal(fast, [
    ['claude-opus-4-6', [['fast', 6, false], ['usOnly', 1.1, false]]],
    ['claude-sonnet-4-5-20250929', [['fast', 2, true]]],
  ]);
});

t('a session nobody knows is a 404; the route is cached and cross-site reads are refused', async () => {
  assert.is((await s.request('/api/receipt?session=no-such-session')).status, 404);
  assert.is((await s.request('/api/receipt?range=nonsense')).status, 400);
  const first = await s.request('/api/receipt?range=all');
  const again = await s.request('/api/receipt?range=all', { headers: { 'if-none-match': String(first.headers.etag) } });
  assert.is(again.status, 304);
  assert.is((await s.request('/api/receipt', { headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);
});

t.run();
