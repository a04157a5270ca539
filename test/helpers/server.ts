// A real dashboard server on 127.0.0.1 over a real in-memory index, plus a raw HTTP client that
// sets Host / Origin / Sec-Fetch-Site by hand (fetch would not let a test forge them).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { FileRole, IndexDb } from '../../src/index-db/types.ts';
import { createServer, type DashboardServer } from '../../src/http/server.ts';
import type { IndexingState } from '../../src/shared/api-types.ts';
import { parseConfig, type Config } from '../../src/config/config.ts';
import type { BudgetService } from '../../src/http/budget-service.ts';
import { createBudgetService } from '../../src/main/budgets.ts';
import { createKeeping } from '../../src/main/keeping.ts';
import { createRetentionService } from '../../src/main/retention.ts';
import { createLimitsService } from '../../src/main/limits.ts';
import { createUsageProbe, type UsageProbe } from '../../src/usage-probe/probe.ts';
import { readTranscript } from '../../src/workers/parse-transcript.ts';

export const INDEXING_DONE: IndexingState = { done: true, filesTotal: 1, filesDone: 1, bytesTotal: 10, bytesDone: 10, finalSince: new Date(0).toISOString() };

export interface TestServer {
  port: number;
  server: DashboardServer;
  index: IndexDb;
  budgets: BudgetService;
  config: Config;
  dir: string;
  logs: string[];
  request(urlPath: string, opts?: RequestOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method?: string;
  /** Exactly these headers; `host: ''` sends none. */
  headers?: Record<string, string>;
  body?: string;
  /** Connect to this address (default 127.0.0.1). */
  address?: string;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

export interface ServerOptions {
  /** Extra flags for parseConfig (after --port 0 --dir <tmp> --offline). */
  argv?: string[];
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  cacheClock?: () => number;
  indexing?: () => IndexingState;
  probe?: UsageProbe;
  /** An index file to serve (default: a fresh in-memory index). */
  indexFile?: string;
  /** An open index to serve (a pipeline's); its owner closes it. */
  index?: IndexDb;
  /** The dashboard's files to serve (the built dist/ui for a browser test; default: a tiny stand-in). */
  uiDir?: string;
  /** The folder the transcripts are kept in, as --keep-transcripts gives it (default: keeping off). */
  keepDir?: string;
  /** Told of each request, at its start and its end (the server's background turns: ingest/turns.ts). */
  requestSeen?: () => void;
}

/** Sends one request with exactly the headers given (Host defaults to localhost:<port>). */
export function request(port: number, urlPath: string, opts: RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // host '' sends no Host header at all.
    const headers: Record<string, string> = { host: `localhost:${port}`, ...opts.headers };
    const setHost = headers.host !== '';
    if (!setHost) delete headers.host;
    const req = http.request({ host: opts.address ?? '127.0.0.1', port, path: urlPath, method: opts.method ?? 'GET', headers, setHost, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Reads a transcript file whole through the real parser and folds it into the index. */
export function ingestFile(index: IndexDb, file: string, role: FileRole): void {
  const st = fs.statSync(file);
  index.applyBatch(readTranscript({ path: file, from: 0, to: st.size, wantPrompt: true }), role, st.size, st.mtimeMs);
}

export function sessionRole(project: string, session: string): FileRole {
  return { project, session, agentId: null, agentType: null, agentDescription: null };
}

/** Starts a server on 127.0.0.1 (random port) with a temp config dir, a built-in price table and a tiny UI dir (or `uiDir`). */
export async function startServer(opts: ServerOptions = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'http-test-'));
  const configDir = path.join(dir, 'config');
  const uiDir = path.join(dir, 'ui');
  fs.mkdirSync(path.join(configDir, 'projects'), { recursive: true });
  fs.mkdirSync(uiDir);
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>Cost</title><cost-app></cost-app>');
  fs.writeFileSync(path.join(uiDir, 'app.js'), 'console.log("ui")');
  fs.mkdirSync(path.join(uiDir, 'vendor'));
  fs.writeFileSync(path.join(uiDir, 'vendor', 'agent-hub-sdk.js'), 'window.AgentHub = {};');

  const config = parseConfig(['--port', '0', '--dir', configDir, '--offline', ...(opts.argv ?? [])], { HOME: dir, ...opts.env });
  const index = opts.index ?? openIndex(opts.indexFile ?? ':memory:');
  if (!opts.index) index.setPrices(PriceTable.builtin());
  const logs: string[] = [];
  // Never started: alerts are checked after each change, and when a test calls budgets.check().
  const budgets = createBudgetService({ index: { queries: index.queries, writable: () => index, otherWriter: () => '' }, log: (m) => logs.push(m) });
  const server = createServer({
    index,
    config,
    indexing: opts.indexing ?? (() => INDEXING_DONE),
    prices: () => PriceTable.builtin(),
    probe: opts.probe ?? createUsageProbe({ bin: path.join(dir, 'no-claude-here'), configDir }),
    budgets,
    // As the server's own: GET /api/retention over this config dir, keeping off unless keepDir is given.
    retention: createRetentionService({
      index: { queries: index.queries, generation: () => index.generation(), writable: () => index },
      indexPath: config.indexPath,
      dirs: config.dirs,
      dirMachines: config.dirMachines,
      machine: config.machine,
      keeping: createKeeping({ dir: opts.keepDir ?? null, projectsDirs: config.projectsDirs, log: (m) => logs.push(m) }),
      offerDir: path.join(dir, 'kept'),
      log: (m) => logs.push(m),
    }),
    limitSettings: createLimitsService({
      index: { queries: index.queries, writable: () => index, otherWriter: () => '' }, indexPath: ':memory:', machine: 'test', pollMinutes: null, log: (m) => logs.push(m),
    }),
    uiDir: opts.uiDir ?? uiDir,
    now: opts.now,
    cacheClock: opts.cacheClock,
    requestSeen: opts.requestSeen,
    log: (m) => logs.push(m),
  });
  const port = await server.listen();
  return {
    port,
    server,
    index,
    config,
    dir,
    logs,
    budgets,
    request: (urlPath, o) => request(port, urlPath, o),
    async close() {
      await server.close();
      if (!opts.index) index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
