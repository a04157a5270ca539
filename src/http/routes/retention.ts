// GET /api/retention (issue 34): what only the index holds, what Claude Code's cleanup deletes next, the kept
// transcripts and the last backup. Not cached: the due counts move with the clock and the settings file, not the index.
import type { ServerResponse } from 'node:http';
import type { Polka, Request } from 'polka';
import { sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

export function mountRetentionRoute(app: Polka, ctx: RouteContext): void {
  const retention = ctx.retention;
  if (!retention) return;
  app.get('/api/retention', function retentionRoute(_req: Request, res: ServerResponse) {
    sendJson(res, 200, retention.report(ctx.now()));
  });
}
