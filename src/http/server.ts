// The HTTP server: guards -> hub routes -> API routes -> static UI (sirv), with one error sink.
// It only reads the index (through `queries`); it never touches the pool or the watcher.
import fs from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import path from 'node:path';
import polka, { type Polka, type Request } from 'polka';
import sirv from 'sirv';
import type { IndexReader } from '../index-db/types.ts';
import type { PriceTable } from '../pricing/table.ts';
import type { UsageProbe } from '../usage-probe/probe.ts';
import type { IndexingState } from '../shared/api-types.ts';
import type { BudgetService } from './budget-service.ts';
import type { RetentionService } from './retention-service.ts';
import type { LimitSettingsService } from './limit-settings-service.ts';
import { ResultCache } from './cache.ts';
import { Errors, HttpError } from './errors.ts';
import { createDataReadGuard, createGuards, createProcessGuard } from './guards.ts';
import { mountHub } from './hub.ts';
import { listen, type Listening } from './listen.ts';
import { mountBudgetRoutes } from './routes/budgets.ts';
import { mountDataRoutes } from './routes/data.ts';
import { mountLimitsRoute } from './routes/limits.ts';
import { mountEventRoutes } from './routes/events.ts';
import { mountPaceRoute } from './routes/pace.ts';
import { mountSnoozeRoute } from './routes/snooze.ts';
import { mountMetaRoutes } from './routes/meta.ts';
import { mountMetricsRoute } from './routes/metrics.ts';
import { mountRetentionRoute } from './routes/retention.ts';
import type { ServerConfig } from './server-config.ts';
import { sendJson, sendText } from './send.ts';

export interface ServerDeps {
  /**
   * Read through `queries` on every request: the index behind it may be reopened. `repricing`: while it says so, no
   * answer's figures are final (absent: never).
   */
  index: Pick<IndexReader, 'queries' | 'stats' | 'generation' | 'snapshot'> & { notes?(): string[]; repricing?(): boolean };
  config: ServerConfig;
  indexing(): IndexingState;
  /** Folders the listing could not read (health.skipped.unreadableFolders); none when absent. */
  unreadableFolders?: () => number;
  prices(): PriceTable;
  probe: UsageProbe;
  /** This machine's budgets (GET, POST and DELETE /api/budgets). */
  budgets: BudgetService;
  /** GET /api/retention and the retention gauges of /metrics (absent: neither). */
  retention?: RetentionService;
  /** The plan limit alert thresholds and the plan (POST /api/limits/settings). */
  limitSettings: LimitSettingsService;
  /** Built dashboard (index.html + assets). */
  uiDir: string;
  now?: () => number;
  /** Told when a request comes and when it is answered: the background work gives way meanwhile (ingest/turns.ts). */
  requestSeen?: () => void;
  /** The result cache's monotonic clock in ms (default performance.now; tests step it). */
  cacheClock?: () => number;
  log: (message: string) => void;
}

export interface DashboardServer {
  app: Polka;
  /** The request listener (guards included), for mounting on any http.Server. */
  handler: RequestListener;
  /** Binds per the config (fallback port, both loopback families); resolves with the port bound. */
  listen(): Promise<number>;
  close(): Promise<void>;
  clearCache(): void;
  /** Resolves once the first answer of an API route has been sent (a restart's scan waits for it, main/index.ts). */
  readonly firstAnswer: Promise<void>;
}

function onError(log: (m: string) => void) {
  return function errorSink(err: unknown, req: Request, res: ServerResponse): void {
    if (res.headersSent) return void res.end();
    if (err instanceof HttpError) return sendJson(res, err.status, { error: err.message });
    log(`error on ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendJson(res, 500, { error: 'Internal server error' });
  };
}

function onNoMatch(req: Request, res: ServerResponse): void {
  if (req.path.startsWith('/api/') || req.path === '/api') return sendJson(res, 404, { error: Errors.notFound().message });
  sendText(res, 404, 'Not found');
}

/** sirv over the built UI; index.html is always revalidated so a new build shows at once. */
function staticFiles(uiDir: string, log: (m: string) => void) {
  if (!fs.existsSync(path.join(uiDir, 'index.html'))) {
    log(`dashboard files not found in ${uiDir} (run npm run build); serving the API only`);
    return null;
  }
  return sirv(uiDir, {
    dev: false,
    etag: true,
    setHeaders(res, pathname) {
      // The SDK stub too: under a hub the same origin serves the hub's client instead, and a cached stub would win.
      if (pathname.endsWith('/') || pathname.endsWith('.html') || pathname.startsWith('/vendor/')) res.setHeader('Cache-Control', 'no-cache');
    },
  });
}

/**
 * The indexing state the answers report: while the stored costs are repriced a chunk at a time, none is final and the
 * index is not done (the cache keys its answers by both, so none from before the reprice's end is served after it).
 */
function indexingOf(deps: ServerDeps): () => IndexingState {
  return () => {
    const state = deps.indexing();
    return deps.index.repricing?.() ? { ...state, done: false, finalSince: null } : state;
  };
}

export function createServer(deps: ServerDeps): DashboardServer {
  const now = deps.now ?? Date.now;
  // Expiry on the cache's monotonic clock, not `now` (the wall clock, which can step back by hours).
  const cache = new ResultCache({ now: deps.cacheClock, generation: () => deps.index.generation() });
  let listening: Listening | null = null;

  const app = polka({ onError: onError(deps.log), onNoMatch });
  const guardOptions = {
    allowedHosts: deps.config.allowedHosts,
    boundHost: deps.config.host,
    hubUrl: deps.config.hubUrl,
    port: () => listening?.port ?? deps.config.port,
  };
  app.use(createGuards(guardOptions));
  mountHub(app, deps.config, deps.log);
  const ctx = {
    index: deps.index, config: deps.config, cache, indexing: indexingOf(deps), unreadableFolders: deps.unreadableFolders ?? (() => 0),
    prices: deps.prices, probe: deps.probe, budgets: deps.budgets, retention: deps.retention, limitSettings: deps.limitSettings, now,
  };
  const dataReadGuard = createDataReadGuard();
  mountDataRoutes(app, ctx, dataReadGuard);
  const crossSiteGuard = createProcessGuard(guardOptions);
  mountMetaRoutes(app, ctx, crossSiteGuard);
  mountMetricsRoute(app, ctx, crossSiteGuard);
  mountBudgetRoutes(app, ctx, dataReadGuard);
  mountSnoozeRoute(app, ctx);
  mountPaceRoute(app, ctx, dataReadGuard);
  mountRetentionRoute(app, ctx, dataReadGuard);
  mountLimitsRoute(app, ctx, dataReadGuard);
  const live = mountEventRoutes(app, ctx, dataReadGuard);
  app.all('/api/*', (req: Request, res: ServerResponse) => onNoMatch(req, res));
  const ui = staticFiles(deps.uiDir, deps.log);
  if (ui) app.use(ui);

  let answered = (): void => {};
  const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
  const seen = deps.requestSeen;
  const handler: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (seen) {
      seen();
      res.once('close', seen);
    }
    if (req.url?.startsWith('/api/')) res.once('finish', answered);
    void app.handler(req as Request, res, undefined as never);
  };

  return {
    app,
    handler,
    async listen() {
      if (listening) return listening.port;
      listening = await listen(handler, { host: deps.config.host, port: deps.config.port, log: deps.log });
      return listening.port;
    },
    async close() {
      live.close();
      await listening?.close();
    },
    clearCache: () => cache.clear(),
    firstAnswer,
  };
}
