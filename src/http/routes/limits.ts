// GET /api/limits: the plan limit windows (last reading, pace, forecast), the hits, the recent readings, the alerts and
// the plan. POST /api/limits/settings changes the alert thresholds and the plan, behind the same guards as the budgets.
// Not cached: a statusline reading is taken in every few seconds and the alerts must show at once.
import type { ServerResponse } from 'node:http';
import type { Middleware, Polka, Request } from 'polka';
import { readBudgetBody } from '../budget-params.ts';
import { HttpError } from '../errors.ts';
import { parseLimitSettings } from '../limit-params.ts';
import { sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

/** `readGuard` refuses the figures to cross-site requests (they read the index). */
export function mountLimitsRoute(app: Polka, ctx: RouteContext, readGuard: Middleware): void {
  app.get('/api/limits', readGuard, function limits(_req: Request, res: ServerResponse) {
    sendJson(res, 200, ctx.index.queries.limits(ctx.now()));
  });
  app.post('/api/limits/settings', async function limitSettings(req: Request, res: ServerResponse) {
    const r = await ctx.limitSettings.change(parseLimitSettings(await readBudgetBody(req)), ctx.now());
    if (r.ok) return sendJson(res, 200, r.limits);
    throw new HttpError(r.reason === 'read-only' ? 409 : 503, r.message);
  });
}
