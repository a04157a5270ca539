// Routes that are not index queries: plan usage and usage drivers (the probe), loaded prices, and the cache reset.
import type { Middleware, Polka, Request } from 'polka';
import type { ServerResponse } from 'node:http';
import type { Pricing } from '../../shared/api-types.ts';
import { entryOf } from '../cache.ts';
import { Errors } from '../errors.ts';
import { sendEntry, sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

/** A route answering from the probe: `refresh=1` skips its cache, a failed probe is a 503 with its message. */
function fromProbe<T>(ask: (refresh: boolean) => Promise<T>) {
  return async function probeRoute(req: Request, res: ServerResponse): Promise<void> {
    const refresh = req.query.refresh === '1' || req.query.refresh === 'true';
    let body: T;
    try {
      body = await ask(refresh);
    } catch (err) {
      throw Errors.probeFailed(err instanceof Error ? err.message : String(err));
    }
    sendJson(res, 200, body);
  };
}

/** `processGuard` refuses cross-site requests on every route that can start the agent CLI. */
export function mountMetaRoutes(app: Polka, ctx: RouteContext, processGuard: Middleware): void {
  app.get('/api/usage-limits', processGuard, fromProbe((refresh) => ctx.probe.get(refresh)));
  // The Overview strip's plan usage: what the probe answered in the last 5 minutes, without starting the CLI.
  app.get('/api/usage-limits/recent', processGuard, function recentUsage(_req: Request, res: ServerResponse) {
    sendJson(res, 200, { limits: ctx.probe.recent() });
  });
  // What drives usage: the CLI scans a week of transcripts, so only on request (Insights), cached apart.
  app.get('/api/usage-drivers', processGuard, fromProbe((refresh) => ctx.probe.drivers(refresh)));

  app.get('/api/pricing', function pricing(req: Request, res: ServerResponse) {
    const table = ctx.prices();
    const body: Pricing = { source: table.source, loadedAt: table.loadedAt.toISOString(), models: table.entries() };
    sendEntry(req, res, entryOf(body));
  });

  // Clears computed results only; prices are refetched on their own schedule (spec).
  app.post('/api/refresh', function refresh(_req: Request, res: ServerResponse) {
    ctx.cache.clear();
    sendJson(res, 200, { ok: true });
  });
}
