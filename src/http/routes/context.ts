// What every route handler may use: the read side of the index and the server's own state.
import type { IndexReader } from '../../index-db/types.ts';
import type { PriceTable } from '../../index-db/pricing/table.ts';
import type { BudgetService } from '../../main/budgets.ts';
import type { Config } from '../../main/config.ts';
import type { UsageProbe } from '../../main/usage-probe.ts';
import type { IndexingState } from '../api-types.ts';
import type { ResultCache } from '../cache.ts';

export interface RouteContext {
  index: Pick<IndexReader, 'queries' | 'stats'>;
  config: Config;
  cache: ResultCache;
  indexing(): IndexingState;
  prices(): PriceTable;
  probe: UsageProbe;
  budgets: BudgetService;
  now(): number;
}
