// GET /api/pace?project=|repository=: the day, week and month around now with their one projection (the strip's
// "by month end"), computed as the budgets' meters and alerts compute theirs (index-db/queries/budget-pace.ts).
import type { ServerResponse } from 'node:http';
import type { Middleware, Polka, Request } from 'polka';
import { Errors } from '../errors.ts';
import { parseProject, parseRepository, type Query } from '../params.ts';
import { GENERATION_HEADER, sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

/** `readGuard` refuses cross-site requests (the answer reads the index). */
export function mountPaceRoute(app: Polka, ctx: RouteContext, readGuard: Middleware): void {
  app.get('/api/pace', readGuard, function pace(req: Request, res: ServerResponse) {
    const q = req.query as Query;
    const project = parseProject(q);
    const repository = parseRepository(q);
    if (repository !== null && !ctx.index.queries.knowsRepository(repository)) throw Errors.badRepository();
    const generation = ctx.index.generation();
    const body = ctx.index.queries.pace(ctx.now(), { project, repository });
    res.setHeader(GENERATION_HEADER, String(generation));
    sendJson(res, 200, body);
  });
}
