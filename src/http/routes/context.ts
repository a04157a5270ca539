// What every route handler may use: the read side of the index and the server's own state.
import type { IndexReader } from '../../index-db/types.ts';
import type { PriceTable } from '../../pricing/table.ts';
import type { UsageProbe } from '../../usage-probe/probe.ts';
import type { IndexingState } from '../../shared/api-types.ts';
import type { BudgetService } from '../budget-service.ts';
import type { ResultCache } from '../cache.ts';
import type { ServerConfig } from '../server-config.ts';

export interface RouteContext {
  index: Pick<IndexReader, 'queries' | 'stats' | 'generation'>;
  config: ServerConfig;
  cache: ResultCache;
  indexing(): IndexingState;
  prices(): PriceTable;
  probe: UsageProbe;
  budgets: BudgetService;
  now(): number;
}
