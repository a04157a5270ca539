// Where prices come from: a catalogue URL (fetched at start and at most every 6 hours) or a file,
// with the built-in table until something loads and whenever nothing can. A failed refetch keeps
// the table in use. onChange fires whenever the table in use changes fingerprint, including when
// start() replaces the built-in table current() returned before it.
import fs from 'node:fs/promises';
import { PriceTable } from './table.ts';
import type { CostMode } from './types.ts';
import { savePriceCache } from './price-cache.ts';

export const DEFAULT_PRICES_URL =
  'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json';
export const REFETCH_MS = 6 * 60 * 60 * 1000;
export const FETCH_TIMEOUT_MS = 10_000;

export interface PriceSourceOptions {
  /** http(s) URL or file path; default LiteLLM's catalogue on GitHub. */
  source?: string;
  /** Never fetch a URL (a file source is still read). */
  offline: boolean;
  mode: CostMode;
  log: (m: string) => void;
  onChange: (t: PriceTable) => void;
  fetchTimeoutMs?: number;
  /** Tests only: the refetch period (default 6 hours). */
  refetchMs?: number;
  /** Where a catalogue fetched from a URL is kept for the command line (price-cache.ts). */
  cacheFile?: string;
}

export interface PriceSource {
  start(): Promise<PriceTable>;
  current(): PriceTable;
  close(): void;
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

const reason = (err: unknown): string =>
  err instanceof Error ? (err.name === 'TimeoutError' ? 'timed out' : err.message) : String(err);

export function createPriceSource(opts: PriceSourceOptions): PriceSource {
  const source = opts.source || DEFAULT_PRICES_URL;
  const remote = isUrl(source);
  const closing = new AbortController();
  let table = PriceTable.builtin(opts.mode);
  let timer: NodeJS.Timeout | null = null;
  let loading = false;

  async function load(): Promise<PriceTable> {
    let text: string;
    if (remote) {
      const signal = AbortSignal.any([closing.signal, AbortSignal.timeout(opts.fetchTimeoutMs ?? FETCH_TIMEOUT_MS)]);
      const res = await fetch(source, { signal });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      text = await res.text();
    } else {
      text = await fs.readFile(source, 'utf8');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`invalid JSON (${reason(err)})`);
    }
    const table = PriceTable.fromCatalogue(json, source, opts.mode);
    if (remote && opts.cacheFile) savePriceCache(opts.cacheFile, source, json);
    return table;
  }

  function use(next: PriceTable): void {
    const changed = next.fingerprint !== table.fingerprint;
    table = next;
    if (changed) opts.onChange(next);
  }

  async function refresh(): Promise<void> {
    if (loading || closing.signal.aborted) return;
    loading = true;
    try {
      const next = await load();
      if (closing.signal.aborted) return;
      const before = table.fingerprint;
      use(next);
      if (next.fingerprint !== before) opts.log(`prices: reloaded ${next.size} models from ${source}, prices changed`);
    } catch (err) {
      if (!closing.signal.aborted) opts.log(`prices: reloading ${source} failed (${reason(err)}); keeping ${table.source}`);
    } finally {
      loading = false;
    }
  }

  return {
    async start() {
      if (remote && opts.offline) {
        opts.log(`prices: offline, using the built-in table (${table.size} models)`);
        return table;
      }
      loading = true;
      try {
        const next = await load();
        if (!closing.signal.aborted) {
          use(next);
          const skipped = next.skipped ? `, ${next.skipped} entries without prices skipped` : '';
          opts.log(`prices: loaded ${next.size} models from ${source}${skipped}`);
        }
      } catch (err) {
        opts.log(`prices: could not load ${source} (${reason(err)}); using the built-in table (${table.size} models)`);
      } finally {
        loading = false;
      }
      if (!closing.signal.aborted) {
        timer = setInterval(() => void refresh(), opts.refetchMs ?? REFETCH_MS);
        timer.unref();
      }
      return table;
    },
    current: () => table,
    close() {
      if (timer) clearInterval(timer);
      timer = null;
      closing.abort();
    },
  };
}
