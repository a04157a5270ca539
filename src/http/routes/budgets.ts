// This machine's budgets: GET lists them with their use and projection; POST sets one and DELETE removes one, behind
// the same guards as POST /api/refresh (Host, Origin, Sec-Fetch-Site: createGuards refuses any cross-site write).
// Answers are never cached: the use moves with every write to the index.
import type { ServerResponse } from 'node:http';
import type { Middleware, Polka, Request } from 'polka';
import type { BudgetChange } from '../budget-service.ts';
import { parseBudget, parseBudgetRef, readBudgetBody } from '../budget-params.ts';
import { HttpError } from '../errors.ts';
import type { Query } from '../params.ts';
import { GENERATION_HEADER, sendJson } from '../send.ts';
import type { RouteContext } from './context.ts';

/** A refused change: 409 on a server that only reads the index, 404 for no such budget, 503 when the file cannot be written. */
export function answer(res: ServerResponse, change: BudgetChange): void {
  if (change.ok) return sendJson(res, 200, change.budgets);
  const status = { 'read-only': 409, 'not-found': 404, 'write-failed': 503 }[change.reason];
  throw new HttpError(status, change.message);
}

/** `readGuard` refuses the list to cross-site requests (it reads the index). */
export function mountBudgetRoutes(app: Polka, ctx: RouteContext, readGuard: Middleware): void {
  const knows = (id: string) => ctx.index.queries.knowsProject(id);
  app.get('/api/budgets', readGuard, function budgets(_req: Request, res: ServerResponse) {
    const generation = ctx.index.generation();
    const body = ctx.budgets.list(ctx.now());
    res.setHeader(GENERATION_HEADER, String(generation));
    sendJson(res, 200, body);
  });
  app.post('/api/budgets', async function setBudget(req: Request, res: ServerResponse) {
    const budget = parseBudget(await readBudgetBody(req), knows);
    answer(res, await ctx.budgets.set(budget, ctx.now()));
  });
  app.delete('/api/budgets', async function removeBudget(req: Request, res: ServerResponse) {
    const { period, project } = parseBudgetRef(req.query as Query, knows);
    answer(res, await ctx.budgets.remove(period, project, ctx.now()));
  });
}
