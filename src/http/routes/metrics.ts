// GET /metrics for Prometheus and compatible scrapers. Computed from the rollups, the counters' text again whenever the
// all-time sums moved and the gauges on every scrape, so neither is staler than the index. Besides the global Host
// guard it refuses cross-site requests, and on a non-loopback bind it needs `Authorization: Bearer <--metrics-token>`
// (403 otherwise, also when no token is configured there); a configured token is required on loopback too.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware, Polka } from 'polka';
import { EXPOSITION_TYPE, expositionChunks } from '../exposition.ts';
import { isLoopbackBind } from '../guards.ts';
import { limitFamilies } from '../limit-metrics.ts';
import { CounterText } from '../counter-text.ts';
import { gaugeFamilies } from '../metrics.ts';
import { retentionFamilies } from '../retention-metrics.ts';
import { sendText } from '../send.ts';
import type { RouteContext } from './context.ts';

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why this request may not read /metrics, or null when it may. */
function refusal(req: IncomingMessage, token: string | null, loopback: boolean): string | null {
  if (token !== null) return tokenMatches(req.headers.authorization, token) ? null : 'Forbidden: /metrics needs Authorization: Bearer <metrics token>';
  return loopback ? null : 'Forbidden: /metrics on a non-loopback address needs --metrics-token';
}

/** `crossSiteGuard` refuses cross-site requests on every method (a page must not read the figures). */
export function mountMetricsRoute(app: Polka, ctx: RouteContext, crossSiteGuard: Middleware): void {
  const loopback = isLoopbackBind(ctx.config.host);
  // The counters' text, made again only once the all-time sums moved; the gauges of now are made on every scrape.
  const counters = new CounterText(() => ctx.index.queries.metrics(ctx.now()).series, ctx.config.machine);
  app.get('/metrics', crossSiteGuard, function metrics(req: IncomingMessage, res: ServerResponse) {
    const why = refusal(req, ctx.config.metricsToken, loopback);
    if (why) return sendText(res, 403, why);
    const now = ctx.now();
    const families = [...gaugeFamilies(ctx.index.queries.metrics(now, false)), ...limitFamilies(ctx.index.queries.limits(now))];
    if (ctx.retention) families.push(...retentionFamilies(ctx.retention.dirs(now)));
    res.statusCode = 200;
    res.setHeader('Content-Type', EXPOSITION_TYPE);
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // The kept counters' Buffer and the gauges' few pieces, never one string of the whole text (exposition.ts says
    // why); with their length, so the text goes out in as many writes, not as chunks.
    const head = counters.text(ctx.index.generation());
    const gauges = [...expositionChunks(families)].map((chunk) => Buffer.from(chunk));
    res.setHeader('Content-Length', gauges.reduce((n, b) => n + b.length, head.length));
    res.write(head);
    for (const b of gauges) res.write(b);
    res.end();
  });
}
