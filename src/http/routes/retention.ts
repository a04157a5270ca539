// GET /api/retention (issue 34): what only the index holds, what Claude Code's cleanup deletes next, the kept
// transcripts and the last backup. Not cached: the due counts move with the clock and the settings file, not the index.
import type { ServerResponse } from 'node:http';
import type { Middleware, Polka, Request } from 'polka';
import { HttpError } from '../errors.ts';
import { sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

/** `readGuard` refuses the figures to cross-site requests (they read the index). */
export function mountRetentionRoute(app: Polka, ctx: RouteContext, readGuard: Middleware): void {
  const retention = ctx.retention;
  if (!retention) return;
  app.get('/api/retention', readGuard, function retentionRoute(_req: Request, res: ServerResponse) {
    sendJson(res, 200, retention.report(ctx.now()));
  });
  // The overview's offer (behind the global guards of every write: Host, Origin, Sec-Fetch-Site). 409 on a server that
  // only reads the index, 503 when the setting cannot be written.
  app.post('/api/retention/keep', async function keep(_req: Request, res: ServerResponse) {
    const change = await retention.keep(ctx.now());
    if (change.ok) return sendJson(res, 200, change.retention);
    throw new HttpError(change.reason === 'read-only' ? 409 : 503, change.message);
  });
}
