// The counters' text of GET /metrics is made again only when the all-time sums moved: a write that leaves them (a file
// gone from disk) keeps the very Buffer, an entry more makes a new one in which only the series that moved are rendered
// again, and the text is the exposition of the series byte for byte. Over a real index file filled through the real
// parser.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CounterText } from '../../src/http/counter-text.ts';
import { expositionChunks, type Labels } from '../../src/http/exposition.ts';
import { counterFamilies } from '../../src/http/metrics.ts';
import { openIndex } from '../../src/index-db/index.ts';
import type { MetricsSnapshot } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole } from '../helpers/server.ts';

const NOW = Date.UTC(2026, 0, 10, 12);

test('the text is kept while the sums hold, made anew when they move, and always the exposition of the series', () => {
  const { dir } = tempDir();
  const index = openIndex(path.join(dir, 'index.db'));
  try {
    index.setPrices(PriceTable.builtin());
    const write = (session: string, output: number, project = '-home-dev-alpha', model?: string): string => {
      const file = writeJsonl(path.join(dir, 'projects', project, `${session}.jsonl`), [
        usageLine({ sessionId: session, messageId: `m-${session}`, requestId: `r-${session}`, timestamp: new Date(NOW).toISOString(), output, ...(model ? { model } : {}) }),
      ]);
      ingestFile(index, file, sessionRole(project, session));
      return file;
    };
    let reads = 0;
    const series = () => {
      reads++;
      return index.queries.metrics(NOW).series;
    };
    const counters = new CounterText(series, 'box');
    const exposition = (): string => [...expositionChunks(counterFamilies(index.queries.metrics(NOW).series, 'box'))].join('');
    // The same text rendered from plain label objects, the way every other family is: the labels CounterText keeps
    // rendered across scrapes must be those.
    const plain = (): string => {
      const labelled = (s: MetricsSnapshot['series'][number], extra: Record<string, string> = {}): Labels =>
        ({ machine: s.machine ?? 'box', project: s.project, project_name: s.projectName, model: s.model, ...extra });
      return [...expositionChunks(counterFamilies(index.queries.metrics(NOW).series, 'box').map((f) => ({
        ...f,
        samples: index.queries.metrics(NOW).series.flatMap((s) => (f.name === 'cost_dashboard_tokens_total'
          ? (['input', 'output', 'cache_creation', 'cache_read'] as const).map((type) => ({
            labels: labelled(s, { type }), value: s[({ input: 'input', output: 'output', cache_creation: 'cacheCreate', cache_read: 'cacheRead' } as const)[type]],
          }))
          : [{ labels: labelled(s), value: f.name === 'cost_dashboard_cost_usd_total' ? s.cost : s.messages }])),
      })))].join('');
    };

    const first = write('a', 100);
    const one = counters.text(index.generation());
    assert.is(one.toString(), exposition());
    assert.is(one.toString(), plain(), 'labels as plain label objects render them');
    assert.ok(one.toString().includes('cost_dashboard_messages_total{machine="box",project="-home-dev-alpha"'));
    assert.is(counters.text(index.generation()), one, 'the same generation: the kept text');
    assert.is(reads, 1, 'and no read');

    const before = index.generation();
    index.markGone(first);
    assert.not.equal(index.generation(), before, 'the index moved');
    assert.is(counters.text(index.generation()), one, 'its sums did not: the very Buffer');
    assert.is(reads, 2, 'read once to see that');

    write('b', 300);
    const two = counters.text(index.generation());
    assert.is.not(two, one);
    assert.is(two.toString(), exposition(), 'the new sums, byte for byte');
    assert.is(two.toString(), plain());
    assert.ok(/cost_dashboard_messages_total\{[^}]*\} 2\n/.test(two.toString()), 'two entries counted');
    assert.is(counters.renderedSeries, 1, 'the one series that moved rendered again');

    // A series more (another folder, another model) and one that moves: only those two are rendered; the text is still
    // the whole exposition, in the reading's order.
    write('c', 50, '-home-dev-beta');
    write('d', 70, '-home-dev-beta', 'claude-opus-4-5-20251101');
    const three = counters.text(index.generation());
    assert.is(three.toString(), exposition());
    assert.is(three.toString(), plain());
    assert.is(index.queries.metrics(NOW).series.length, 3);
    assert.is(counters.renderedSeries, 2, 'the two new series only');
    write('e', 20, '-home-dev-beta');
    const four = counters.text(index.generation());
    assert.is(four.toString(), exposition());
    assert.is(counters.renderedSeries, 1, 'the beta series that moved only');
  } finally {
    index.close();
  }
});

test.run();
