// Writing responses: cached JSON entries (with a 304 on a matching If-None-Match), plain JSON,
// and plain text for the guards.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CacheEntry } from './cache.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** True when If-None-Match lists this ETag (weak comparison) or is `*`. */
export function isFresh(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

/** The index generation an answer was computed at: the page refetches what is older than the one it was told of. */
export const GENERATION_HEADER = 'X-Index-Generation';

export function sendEntry(req: IncomingMessage, res: ServerResponse, entry: CacheEntry, status = 200): void {
  res.setHeader('ETag', entry.etag);
  if (entry.generation !== null) res.setHeader(GENERATION_HEADER, String(entry.generation));
  // The browser keeps its own 5-minute copy in memory; HTTP caches must always revalidate.
  res.setHeader('Cache-Control', 'no-cache');
  if (status === 200 && isFresh(req, entry.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', entry.body.length);
  res.end(req.method === 'HEAD' ? undefined : entry.body);
}

/** JSON that is never cached (errors, probe results, refresh). */
export function sendJson(res: ServerResponse, status: number, data: unknown): void {
  const body = Buffer.from(JSON.stringify(data));
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(`${text}\n`);
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
