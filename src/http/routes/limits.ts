// GET /api/limits: the plan limit windows (last reading, pace, forecast), the hits, the recent readings and the alerts.
// Not cached: a statusline reading is taken in every few seconds and the alerts must show at once.
import type { ServerResponse } from 'node:http';
import type { Polka, Request } from 'polka';
import { sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

export function mountLimitsRoute(app: Polka, ctx: RouteContext): void {
  app.get('/api/limits', function limits(_req: Request, res: ServerResponse) {
    sendJson(res, 200, ctx.index.queries.limits(ctx.now()));
  });
}
