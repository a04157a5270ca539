// POST /api/budgets/snooze?period=&project=: the budget's alert stays hidden until its current period ends. Kept in
// the index (settings), so a reload or another browser does not bring it back; behind the same guards as every write.
import type { ServerResponse } from 'node:http';
import type { Polka, Request } from 'polka';
import { parseBudgetRef } from '../budget-params.ts';
import type { Query } from '../params.ts';
import { answer } from './budgets.ts';
import type { RouteContext } from './context.ts';

export function mountSnoozeRoute(app: Polka, ctx: RouteContext): void {
  app.post('/api/budgets/snooze', async function snoozeBudget(req: Request, res: ServerResponse) {
    const { period, project } = parseBudgetRef(req.query as Query, (id) => ctx.index.queries.knowsProject(id));
    answer(res, await ctx.budgets.snooze(period, project, ctx.now()));
  });
}
