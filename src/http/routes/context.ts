// What every route handler may use: the read side of the index and the server's own state.
import type { IndexReader } from '../../index-db/types.ts';
import type { PriceTable } from '../../pricing/table.ts';
import type { UsageProbe } from '../../usage-probe/probe.ts';
import type { IndexingState } from '../../shared/api-types.ts';
import type { BudgetService } from '../budget-service.ts';
import type { RetentionService } from '../retention-service.ts';
import type { LimitSettingsService } from '../limit-settings-service.ts';
import type { ResultCache } from '../cache.ts';
import type { ServerConfig } from '../server-config.ts';

export interface RouteContext {
  /** `notes`: what happened to the index file itself (the server's IndexKeeper), for the overview's health. */
  index: Pick<IndexReader, 'queries' | 'stats' | 'generation' | 'snapshot'> & { notes?(): string[] };
  config: ServerConfig;
  cache: ResultCache;
  indexing(): IndexingState;
  unreadableFolders(): number;
  prices(): PriceTable;
  probe: UsageProbe;
  budgets: BudgetService;
  /** GET /api/retention and the retention gauges; absent: neither. */
  retention?: RetentionService;
  limitSettings: LimitSettingsService;
  now(): number;
}
