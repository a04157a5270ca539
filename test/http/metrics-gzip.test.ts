// GET /metrics to a scraper that takes gzip: one gzip member (header, one raw deflate stream, trailer) whose text is
// the plain answer byte for byte, with the counters' compressed part kept across scrapes and made anew once the sums
// moved; a q of 0 or no Accept-Encoding gets the plain text. Over a real server and a real index file.
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.UTC(2026, 0, 10, 12);

/** One usage entry in a session file of the server's config dir, read into the index. */
function add(s: TestServer, session: string, output: number): void {
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, '-home-dev-alpha', `${session}.jsonl`), [
    usageLine({ sessionId: session, messageId: `m-${session}`, requestId: `r-${session}`, timestamp: new Date(NOW - 3_600_000).toISOString(), output }),
  ]);
  ingestFile(s.index, file, sessionRole('-home-dev-alpha', session));
}

/** The plain text and the gzip answer of one state of the index, checked to be one member of the same text. */
async function both(s: TestServer): Promise<{ plain: string; gzip: Buffer }> {
  const plain = await s.request('/metrics');
  assert.is(plain.headers['content-encoding'], undefined);
  assert.is(Number(plain.headers['content-length']), plain.body.length);
  const gz = await s.request('/metrics', { headers: { 'accept-encoding': 'deflate, gzip;q=0.8' } });
  assert.is(gz.status, 200);
  assert.is(gz.headers['content-encoding'], 'gzip');
  assert.is(gz.headers.vary, 'Accept-Encoding');
  assert.is(Number(gz.headers['content-length']), gz.body.length);
  // gunzip checks the trailer's CRC-32 and length; the raw inflate of what lies between header and trailer shows
  // that it is one deflate stream, not members laid end to end.
  assert.is(zlib.gunzipSync(gz.body).toString(), plain.text);
  assert.is(zlib.inflateRawSync(gz.body.subarray(10, -8)).toString(), plain.text);
  assert.ok(gz.body.length < plain.body.length);
  return { plain: plain.text, gzip: gz.body };
}

test('a scraper that takes gzip gets the same text in one gzip member, before and after the sums move', async () => {
  const { dir } = tempDir();
  const index = openIndex(path.join(dir, 'index.db'));
  index.setPrices(PriceTable.builtin());
  const s = await startServer({ index, now: () => NOW });
  try {
    add(s, 'a', 100);
    const one = await both(s);
    const again = await both(s);
    assert.equal(again, one, 'the kept part: the same bytes');
    add(s, 'b', 300);
    const two = await both(s);
    assert.is.not(two.plain, one.plain, 'the new entry is in it');
    assert.ok(two.plain.includes('cost_dashboard_messages_total{machine='));
    const refused = await s.request('/metrics', { headers: { 'accept-encoding': 'gzip;q=0, br' } });
    assert.is(refused.headers['content-encoding'], undefined);
    assert.is(refused.text, two.plain);
  } finally {
    await s.close();
    index.close();
  }
});

test.run();
