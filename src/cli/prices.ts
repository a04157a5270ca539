// The price table a command writes the index with. New rows must be priced like the rows already there
// (a different table reprices every stored cost), so a command uses what the server would: a --prices
// file, the built-in table when offline, else the catalogue the server last fetched (price-cache.ts),
// fetched again only when that copy is older than the server's refetch period.
import { PriceTable } from '../pricing/table.ts';
import type { Config } from '../config/config.ts';
import { loadPriceCache, priceCacheFile } from '../pricing/price-cache.ts';
import { createPriceSource, DEFAULT_PRICES_URL, REFETCH_MS } from '../pricing/price-source.ts';

type PriceConfig = Pick<Config, 'prices' | 'offline' | 'costMode' | 'indexPath'>;

export async function pricesFor(config: PriceConfig, warn: (msg: string) => void): Promise<PriceTable> {
  const source = config.prices ?? DEFAULT_PRICES_URL;
  const mode = config.costMode;
  const remote = /^https?:\/\//i.test(source);
  if (remote && config.offline) return PriceTable.builtin(mode);
  let cached: PriceTable | null = null;
  if (remote) {
    const copy = loadPriceCache(priceCacheFile(config.indexPath), source);
    try {
      cached = copy && PriceTable.fromCatalogue(copy.catalogue, source, mode);
    } catch {
      cached = null; // not a catalogue any more: fetch again
    }
    if (cached && Date.now() - copy!.fetchedMs < REFETCH_MS) return cached;
  }
  // What the server does at start: load the source once (a URL is saved to the cache).
  let failed = '';
  const loader = createPriceSource({
    source, offline: false, mode, cacheFile: priceCacheFile(config.indexPath), onChange: () => {},
    log: (msg) => {
      if (msg.includes('could not load')) failed = msg;
    },
  });
  const table = await loader.start();
  loader.close();
  if (!failed) return table;
  warn(`${failed.replace(/; using the built-in table.*/, '')}; using ${cached ? 'the last fetched catalogue' : 'the built-in table'}`);
  return cached ?? table;
}
