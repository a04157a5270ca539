// GET /api/events: Server-Sent Events telling open pages that the index moved, so they refetch at once instead of at
// their next poll. One `change` event carries the new generation (the X-Index-Generation of the answers computed
// from it) and whether the first build is done. It passes the same guards as every API GET (Host, framing), and is
// an ordinary same-origin GET, so a hub's same-origin fetch reaches it too.
import type { ServerResponse } from 'node:http';
import type { Middleware, Polka, Request } from 'polka';
import type { LiveChange } from '../../shared/api-types.ts';
import type { RouteContext } from './context.ts';

/** How often the generation is compared while a page listens: one property read (a pragma for a reader). */
const WATCH_MS = 200;
/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const KEEPALIVE_MS = 20_000;
/** What EventSource waits before reconnecting after the stream broke (a restart of the server). */
const RETRY_MS = 1000;

export interface LiveFeed {
  /** Open streams, for tests and shutdown. */
  readonly listeners: number;
  close(): void;
}

/** `readGuard` refuses cross-site requests (the answer reads the index). */
export function mountEventRoutes(app: Polka, ctx: RouteContext, readGuard: Middleware): LiveFeed {
  const streams = new Set<ServerResponse>();
  let last: LiveChange | null = null;
  let watch: NodeJS.Timeout | null = null;
  let keepAlive: NodeJS.Timeout | null = null;

  const current = (): LiveChange => ({ generation: ctx.index.generation(), done: ctx.indexing().done });
  const frame = (c: LiveChange) => `event: change\ndata: ${JSON.stringify(c)}\n\n`;

  const tick = (): void => {
    let now: LiveChange;
    try {
      now = current();
    } catch {
      return; // the index is being reopened: the next tick tells
    }
    if (last && now.generation === last.generation && now.done === last.done) return;
    last = now;
    for (const res of streams) res.write(frame(now));
  };

  const stop = (): void => {
    if (watch) clearInterval(watch);
    if (keepAlive) clearInterval(keepAlive);
    watch = keepAlive = null;
  };

  app.get('/api/events', readGuard, function events(req: Request, res: ServerResponse) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // Proxies in front (a hub's) must pass each event on as it comes.
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n\n`);
    // The new page learns the state at once; the others only when it moves.
    try {
      const now = current();
      last ??= now;
      res.write(frame(now));
    } catch {
      // the index is being reopened: the first tick after it tells
    }
    streams.add(res);
    if (!watch) {
      watch = setInterval(tick, WATCH_MS);
      watch.unref();
      keepAlive = setInterval(() => {
        for (const s of streams) s.write(': keep-alive\n\n');
      }, KEEPALIVE_MS);
      keepAlive.unref();
    }
    req.socket.setTimeout(0);
    res.once('close', () => {
      streams.delete(res);
      if (streams.size === 0) stop();
    });
  });

  return {
    get listeners() {
      return streams.size;
    },
    close() {
      stop();
      for (const s of streams) s.end();
      streams.clear();
    },
  };
}
