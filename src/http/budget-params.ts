// What a budget change may carry (POST /api/budgets, DELETE /api/budgets): anything else is a 400 with its reason, and
// nothing changes.
import type { IncomingMessage } from 'node:http';
import type { Budget, BudgetPeriod } from '../shared/api-types.ts';
import { HttpError } from './errors.ts';
import type { Query } from './params.ts';
import { isProjectName } from '../shared/project-name.ts';

/** A budget is three short fields: a bigger body is not one. */
export const MAX_BUDGET_BODY = 4096;
/** The largest budget accepted, in dollars. */
export const MAX_BUDGET_USD = 1_000_000;
/** The smallest: a cent (the dashboard shows cents; a smaller budget, $1e-300 say, is a typo that alerts at once). */
export const MIN_BUDGET_USD = 0.01;

const PERIODS: readonly string[] = ['daily', 'weekly', 'monthly'];

const bad = (message: string) => new HttpError(400, message);

/** The request body as text, refused past MAX_BUDGET_BODY bytes (the rest is read and dropped, so the reply arrives). */
export async function readBudgetBody(req: IncomingMessage): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BUDGET_BODY) {
    req.resume();
    throw bad(`Budget body too large (at most ${MAX_BUDGET_BODY} bytes)`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BUDGET_BODY) chunks.push(chunk);
  }
  if (size > MAX_BUDGET_BODY) throw bad(`Budget body too large (at most ${MAX_BUDGET_BODY} bytes)`);
  return Buffer.concat(chunks).toString('utf8');
}

export function parsePeriod(v: unknown): BudgetPeriod {
  if (typeof v !== 'string' || !PERIODS.includes(v)) throw bad('Invalid budget period: daily, weekly or monthly');
  return v as BudgetPeriod;
}

/** null (or absent) is every project; else an encoded folder name the index holds. */
export function parseBudgetProject(v: unknown, knows: (id: string) => boolean): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'string' || !isProjectName(v)) throw bad('Invalid project');
  if (!knows(v)) throw bad(`Unknown project: ${v}`);
  return v;
}

export function parseAmount(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < MIN_BUDGET_USD || v > MAX_BUDGET_USD) {
    throw bad(`Invalid budget amount: a number of dollars from ${MIN_BUDGET_USD} to ${MAX_BUDGET_USD}`);
  }
  return v;
}

/** POST /api/budgets: `{"period": "daily", "project": null, "amount": 50}`. */
export function parseBudget(body: string, knows: (id: string) => boolean): Budget {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw bad('Invalid budget: the body must be JSON {"period", "project", "amount"}');
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw bad('Invalid budget: the body must be JSON {"period", "project", "amount"}');
  const o = data as Record<string, unknown>;
  return { period: parsePeriod(o.period), project: parseBudgetProject(o.project, knows), amount: parseAmount(o.amount) };
}

/** DELETE /api/budgets?period=…[&project=…]: which budget. */
export function parseBudgetRef(q: Query, knows: (id: string) => boolean): { period: BudgetPeriod; project: string | null } {
  const one = (name: string) => {
    const v = q[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return { period: parsePeriod(one('period')), project: parseBudgetProject(one('project'), knows) };
}
