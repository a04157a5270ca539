// How the bench times one request (bench/common.ts): /metrics through curl, as a native scraper reads it, any other
// route through node:http; both to the last byte of a real loopback server's answer, and a failed answer is an error,
// never a time.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { timedCurl, timedRead } from '../../bench/common.ts';

const test = suite('bench timed reads');

test('times /metrics with curl and other routes with node:http, to the last byte; a non-200 answer rejects', async () => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.url} ${req.headers['user-agent']?.split('/')[0] ?? 'none'}`);
    if (req.url === '/broken') {
      res.statusCode = 500;
      return res.end('no');
    }
    // Half of the answer, then the rest 60 ms later: a time to the last byte includes the wait.
    res.write('a'.repeat(1 << 20));
    setTimeout(() => res.end('b'.repeat(1 << 20)), 60);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const scrape = await timedRead(base, '/metrics');
    const query = await timedRead(base, '/api/overview?range=7');
    assert.ok(scrape >= 55, `scrape ${scrape} ms`);
    assert.ok(query >= 55, `query ${query} ms`);
    assert.equal(seen, ['/metrics curl', '/api/overview?range=7 none']);
    let failed: unknown = null;
    await timedCurl(base, '/broken').catch((err: unknown) => (failed = err));
    assert.match(String(failed), /\/broken: 500/);
  } finally {
    server.close();
  }
});

test.run();
