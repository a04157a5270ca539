// The data routes (spec "Endpoints" and "Query parameters"): params -> cache -> index query -> the response (the
// query's figures inside the envelope assembled here: the range and scope resolved, the server's state) ->
// serialised Buffer + ETag. While the first index build runs, results live 2 s instead of 30 s so
// progress and fresh rows show up quickly; the key carries the build state so no in-progress
// result outlives the build.
import type { Middleware, Polka, Request } from 'polka';
import type { ServerResponse } from 'node:http';
import { Errors } from '../errors.ts';
import { isProjectName } from '../../shared/project-name.ts';
import { MAX_REPOSITORY_LENGTH, parseMachineParam, parseProject, parseRange, parseRepository, rangeKey, type Query, type RangeDefault } from '../params.ts';
import { sendEntry } from '../send.ts';
import type { QueryScope } from '../../index-db/types.ts';
import type { IndexingState, Insights, Monthly, Overview, ProjectSessions, Receipt, RepositoryDetail, SessionDetail, SessionList } from '../../shared/api-types.ts';
import type { RouteContext } from './context.ts';
import { healthOf } from '../health.ts';

const INDEXING_TTL_MS = 2000;
const MAX_ID_LENGTH = 256;

interface Resolved {
  scope: QueryScope;
  indexing: IndexingState;
  /** Whether the range's figures are final (isFinal). */
  final: boolean;
}

/**
 * A range is final once the index is built, or while it is built once every transcript that may hold an entry of it
 * has been read: the range starts at or after `finalSince` (src/ingest/scan-order.ts has the rule).
 */
export function isFinal(range: { fromMs: number }, indexing: IndexingState): boolean {
  return indexing.done || (indexing.finalSince !== null && range.fromMs >= Date.parse(indexing.finalSince));
}

/** The envelope's echo of what was asked: the resolved range, the folder and the repository scope. */
function scopeOf(scope: QueryScope): Pick<Overview, 'range' | 'project' | 'repository'> {
  return { range: scope.range, project: scope.project, repository: scope.repository ?? null };
}

/**
 * Registers one cached data route behind `readGuard` (cross-site requests refused). `projectParam`: whether
 * `?project=`, `?repository=` and `?machine=` apply (else they are ignored).
 */
function dataRoute(
  app: Polka,
  ctx: RouteContext,
  readGuard: Middleware,
  path: string,
  opts: { fallback: RangeDefault; projectParam: boolean; id?: (req: Request) => string },
  compute: (r: Resolved, req: Request) => unknown,
): void {
  app.get(path, readGuard, async function dataHandler(req: Request, res: ServerResponse) {
    const q = req.query as Query;
    const now = ctx.now();
    const range = parseRange(q, opts.fallback, now);
    const project = opts.projectParam ? parseProject(q) : null;
    const repository = opts.projectParam ? parseRepository(q) : null;
    const label = opts.projectParam ? parseMachineParam(q) : null;
    const indexing = ctx.indexing();
    const final = isFinal(range, indexing);
    // JSON: a repository path may hold any character, the separator included. With `final`: an answer from before the
    // range was final is not served as final.
    const key = JSON.stringify([path, opts.id?.(req) ?? '', rangeKey(range), project, repository, label, indexing.done, final]);
    // This machine's name scopes its unlabelled dirs (null); absent, every machine.
    const machine = label === null ? undefined : label === ctx.config.machine ? null : label;
    const scope: QueryScope = { range, project, repository, machine, now };
    // One state of the index for the whole answer (its figures and its health), whoever writes it.
    const run = () => ctx.index.snapshot(() => {
      if (repository !== null && !ctx.index.queries.knowsRepository(repository)) throw Errors.badRepository();
      if (machine && !ctx.index.queries.knowsMachine(machine)) throw Errors.badMachine();
      return compute({ scope, indexing, final }, req);
    });
    const entry = await ctx.cache.get(key, run, indexing.done ? ctx.cache.ttlMs : INDEXING_TTL_MS);
    // In a header too, for the answers that are an array (/api/projects).
    res.setHeader('X-Cost-Final', String(final));
    sendEntry(req, res, entry);
  });
}

export function mountDataRoutes(app: Polka, ctx: RouteContext, readGuard: Middleware): void {
  const q = () => ctx.index.queries;

  dataRoute(app, ctx, readGuard, '/api/overview', { fallback: 'days30', projectParam: true }, ({ scope, indexing, final }): Overview => ({
    ...scopeOf(scope),
    indexing,
    final,
    dirs: ctx.config.dirs,
    ...q().overview(scope, ctx.config.machine),
    health: healthOf(ctx.index.stats(), scope.now, ctx.unreadableFolders(), ctx.index.notes?.()),
  }));
  dataRoute(app, ctx, readGuard, '/api/insights', { fallback: 'days30', projectParam: true }, ({ scope, indexing, final }): Insights => ({
    ...scopeOf(scope),
    indexing,
    final,
    ...q().insights(scope),
  }));
  dataRoute(app, ctx, readGuard, '/api/projects', { fallback: 'all', projectParam: true }, ({ scope }) => q().projects(scope, ctx.config.machine));
  // Every month of the history: the range parameters do not apply.
  dataRoute(app, ctx, readGuard, '/api/monthly', { fallback: 'all', projectParam: true }, ({ scope, final }): Monthly => ({
    project: scope.project,
    final,
    ...q().monthly(scope),
  }));

  dataRoute(app, ctx, readGuard, '/api/sessions', { fallback: 'days30', projectParam: true }, ({ scope, final }): SessionList => ({
    ...scopeOf(scope),
    final,
    ...q().sessions(scope, ctx.config.machine),
  }));

  const projectOf = (req: Request) => req.params.path ?? '';
  dataRoute(app, ctx, readGuard, '/api/projects/:path/sessions', { fallback: 'all', projectParam: false, id: projectOf }, ({ scope, final }, req) => {
    const project = projectOf(req);
    const found = isProjectName(project) ? q().projectSessions(project, scope) : null;
    if (!found) throw Errors.projectNotFound();
    return { range: scope.range, final, ...found } satisfies ProjectSessions;
  });

  // The repository id is a path: a query parameter, not a path segment.
  const repositoryOf = (req: Request) => {
    const id = (req.query as Query).id;
    return typeof id === 'string' ? id : '';
  };
  dataRoute(app, ctx, readGuard, '/api/repository', { fallback: 'all', projectParam: false, id: repositoryOf }, ({ scope, final }, req) => {
    const id = repositoryOf(req);
    const found = id && id.length <= MAX_REPOSITORY_LENGTH ? q().repository(id, scope, ctx.config.machine) : null;
    if (!found) throw Errors.repositoryNotFound();
    return { range: scope.range, final, ...found } satisfies RepositoryDetail;
  });

  // ?session= narrows the receipt to one session's messages (its id); the other parameters are the overview's.
  const receiptSession = (req: Request) => {
    const id = (req.query as Query).session;
    return typeof id === 'string' ? id : '';
  };
  dataRoute(app, ctx, readGuard, '/api/receipt', { fallback: 'days30', projectParam: true, id: receiptSession }, async ({ scope, final }, req) => {
    const session = receiptSession(req) || null;
    const found = session === null || session.length <= MAX_ID_LENGTH ? await q().receipt({ ...scope, session }) : null;
    if (!found) throw Errors.sessionNotFound();
    return { ...scopeOf(scope), session, final, ...found } satisfies Receipt;
  });

  const sessionOf = (req: Request) => req.params.id ?? '';
  dataRoute(app, ctx, readGuard, '/api/sessions/:id', { fallback: 'all', projectParam: false, id: sessionOf }, ({ scope, final }, req) => {
    const id = sessionOf(req);
    const found = id.length <= MAX_ID_LENGTH ? q().session(id, scope, ctx.config.machine) : null;
    if (!found) throw Errors.sessionNotFound();
    return { ...found, range: scope.range, final } satisfies SessionDetail;
  });
}
