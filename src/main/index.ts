// Composition root: config -> index -> prices -> server (answers at once) -> pipeline (pool, ingest, scan, watcher).
// The only module that knows every part, and the only one that starts or stops things.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, parseConfig, type Config } from '../config/config.ts';
import { IndexWriteError } from '../index-db/index.ts';
import { indexHasFilesUnder } from '../index-db/dir-history.ts';
import { settleIndexFile } from '../index-db/relocate.ts';
import { keepIndex, type IndexKeeper } from './index-keeper.ts';
import { createPriceSource } from '../pricing/price-source.ts';
import { priceCacheFile } from '../pricing/price-cache.ts';
import { createServer } from '../http/server.ts';
import { createUsageProbe } from '../usage-probe/probe.ts';
import { createBudgetService } from './budgets.ts';
import { createRetentionService } from './retention.ts';
import { createKeeping } from './keeping.ts';
import { createLimitsService } from './limits.ts';
import { prepareFirstScan, startPipeline, type PreparedScan } from '../ingest/pipeline.ts';
import { createGivingWay } from '../ingest/turns.ts';
import { createLifecycle, exitOnSignals } from './lifecycle.ts';
import { log } from '../ingest/log.ts';
import { keepHeapNearLive } from './heap.ts';

/** dist/main.js serves dist/ui; under tsx (tests) src/main/index.ts serves the built dist/ui too. */
function uiDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return import.meta.url.endsWith('.ts') ? path.resolve(here, '../../dist/ui') : path.join(here, 'ui');
}

const PRICE_WAIT_MS = 2000;
/**
 * How long a restart's start-up scan waits for the first API answer. It stats every transcript, mostly to find
 * nothing new (on a big history a noticeable stretch of the main thread and of the other core before the first answer),
 * so it starts once the first answer is out: a hub tab asks for it right after loading the page.
 */
const SCAN_WAIT_MS = 1000;
/** How long a first index's listing may hold up the ready line: a small history's listing is done by then, a big one's is not. */
const LISTING_WAIT_MS = 50;

function loadConfig(): Config {
  try {
    return parseConfig(process.argv.slice(2), process.env, process.platform, { indexHasFilesUnder });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`cost-dashboard: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const parsed = loadConfig();
  if (parsed.help !== null) {
    process.stdout.write(parsed.help);
    return;
  }
  if (parsed.version !== null) {
    process.stdout.write(`${parsed.version}\n`);
    return;
  }
  const config = { ...parsed, indexPath: settleIndexFile(parsed.indexPath, parsed.formerIndexPath, { move: true, log }) };
  for (const d of config.missingDirs) log(`config dir not found: ${d}; serving its history from the index and reading it when it appears`);
  const lifecycle = createLifecycle(log);
  exitOnSignals(lifecycle);

  const prices = createPriceSource({
    source: config.prices ?? undefined,
    offline: config.offline,
    mode: config.costMode,
    log,
    onChange: (table) => index.setPrices(table),
    cacheFile: priceCacheFile(config.indexPath),
  });
  lifecycle.add('prices', () => prices.close());

  // Before a first index: the listing, and a parse worker starting while the index and the server are made, so the
  // first batch comes sooner. A listing longer than LISTING_WAIT_MS (a big history) does not hold up the ready line: the
  // pipeline waits for it instead. The first pipeline takes them; a process that reads another writer's index closes them.
  let preparing: Promise<PreparedScan | null> | null = prepareFirstScan(config.indexPath, config.projectsDirs, log);
  await Promise.race([preparing, new Promise((resolve) => setTimeout(resolve, LISTING_WAIT_MS).unref())]);
  const takePrepared = (): Promise<PreparedScan | null> | undefined => {
    const taken = preparing ?? undefined;
    preparing = null;
    return taken;
  };
  const dropPrepared = async (): Promise<void> => (await takePrepared())?.pool.close();
  lifecycle.add('first pool', dropPrepared);

  const keeping = createKeeping({ dir: config.keepTranscripts, projectsDirs: config.projectsDirs, log });

  // The background work after the start-up scan gives way to the requests (ingest/turns.ts).
  const givingWay = createGivingWay();

  // One writer per index file: a second process on the same file serves it read-only and takes over
  // when the writer stops. Busy, read-only or unopenable files end the process with one clear line.
  const index = await keepIndex({
    file: config.indexPath,
    log,
    prices: () => prices.current(),
    // Tests: a compaction due after a small first index, and held as long as the test wants (index-db/write/compact.ts).
    compactMinMessages: Number(process.env.COST_COMPACT_MIN_MESSAGES) || undefined,
    compactTestGate: process.env.COST_COMPACT_TEST_GATE || undefined,
    startPipeline: async (db) => {
      const pipeline = await startPipeline({
        projectsDirs: config.projectsDirs, machines: config.dirMachines, index: db, log, prepared: takePrepared(), keeper: keeping.keeper, turn: givingWay.turn,
        // The bench: requests during re-check passes that follow each other (bench/first-answers.ts).
        recheckMs: Number(process.env.COST_RECHECK_MS) || undefined,
      });
      // Not before: collecting the heap at every 30% cost a first index's first answers GC time, and a restart's
      // requests during its re-check (heap.ts).
      void Promise.race([pipeline.ingest.weekFinal(), pipeline.watching]).then(keepHeapNearLive);
      return pipeline;
    },
  }).catch((err: unknown) => {
    if (!(err instanceof IndexWriteError)) throw err;
    process.stderr.write(`cost-dashboard: ${err.message}\n`);
    process.exit(1);
  });
  // Registered before the pipeline's stop, so it runs after it; synchronous and atExit, because under a hub the
  // SDK calls process.exit() when the hub goes away, mid-shutdown or before it: the index is still committed.
  lifecycle.add('index', () => index.closeIndex(), { atExit: true });
  lifecycle.add('pipeline', () => index.stop());

  // Kept on when the dashboard's offer turned it on at an earlier start; the start-up scan keeps every transcript.
  const offered = index.queries.retention.keptFolder();
  if (offered !== null) void keeping.turnOn(offered, []);

  // Budgets are read by any server on the index; only its writer changes them and logs their alerts.
  const budgets = createBudgetService({ index, log });
  lifecycle.add('budgets', () => budgets.close());

  // Plan limits: the statusline's readings and the probe's answers kept, alerts logged (the writer only).
  const limits = createLimitsService({ index, indexPath: config.indexPath, machine: config.machine, pollMinutes: config.pollLimitsMinutes, log });
  lifecycle.add('limits', () => limits.close());
  const probe = limits.recording(createUsageProbe({ bin: config.agentBin, configDir: config.dirs[0] ?? '' }));

  const server = createServer({
    index,
    config,
    indexing: () => index.progress(),
    unreadableFolders: () => index.unreadableFolders(),
    prices: () => prices.current(),
    probe,
    budgets,
    retention: createRetentionService({
      index, indexPath: config.indexPath, dirs: config.dirs, dirMachines: config.dirMachines, machine: config.machine, keeping, offerDir: `${config.indexPath}.transcripts`, log,
    }),
    limitSettings: limits,
    uiDir: uiDir(),
    requestSeen: givingWay.seen,
    log,
  });
  const port = await server.listen();
  lifecycle.add('server', () => server.close());
  // The one stdout line the hub matches (case-insensitively) with `running at http://localhost:(\d+)`.
  process.stdout.write(`Cost Dashboard running at http://localhost:${port}\n`);
  if (config.open) openBrowser(`http://localhost:${port}`);

  // Prices before the first write, so costs are computed once: a file is read at once, a URL gets
  // PRICE_WAIT_MS; past that the built-in table prices, and a late catalogue reprices (onChange).
  await Promise.race([prices.start(), new Promise((resolve) => setTimeout(resolve, PRICE_WAIT_MS).unref())]);
  // A restart answers from the file first; a first index (nothing to answer yet) starts reading at once.
  if (holdsHistory(index)) await Promise.race([server.firstAnswer, new Promise((resolve) => setTimeout(resolve, SCAN_WAIT_MS).unref())]);
  await index.start();
  // Not taken: this process reads another writer's index, and a takeover lists the transcripts again.
  void dropPrepared();
  budgets.start();
  limits.start(probe);
}

/** Whether the index already holds transcripts. A file this read finds damaged is read again at once, where the first query's check recovers it. */
function holdsHistory(index: IndexKeeper): boolean {
  try {
    return index.stats().files > 0;
  } catch {
    return false;
  }
}

function openBrowser(url: string): void {
  void import('node:child_process').then(({ spawn }) => {
    const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
    const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => log(`could not open a browser; visit ${url}`));
    child.unref();
  });
}

main().catch((err: unknown) => {
  log(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
