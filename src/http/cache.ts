// The server's result cache (spec: computed results kept 30 s, POST /api/refresh clears them), keyed by the index's
// generation too: once the index has moved, every older answer is stale, so the next request computes afresh.
// It stores the serialised body and its ETag, so a hit is a map lookup plus res.end(buf).
// Concurrent misses of one key share one computation; entries and bytes are bounded (oldest out).
import { createHash } from 'node:crypto';

export interface CacheEntry {
  body: Buffer;
  /** Weak validator of the body. */
  etag: string;
  /** The index generation the body was computed at; null for an answer that does not come from the index. */
  generation: number | null;
}

export interface ResultCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  maxBytes?: number;
  /** Milliseconds from a monotonic clock (default performance.now): a wall-clock step must not keep results stale. */
  now?: () => number;
  /** The index's generation (IndexReader.generation): when it moves, every stored answer is dropped. */
  generation?: () => number;
}

interface Stored extends CacheEntry {
  expires: number;
}

export function entryOf(data: unknown, generation: number | null = null): CacheEntry {
  const body = Buffer.from(JSON.stringify(data));
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag, generation };
}

export class ResultCache {
  readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly indexGeneration: () => number;
  /** The index generation the stored answers belong to. */
  private seenGeneration: number;
  private readonly map = new Map<string, Stored>();
  private readonly pending = new Map<string, Promise<CacheEntry>>();
  private bytes = 0;
  /** Bumped by clear(): a computation started before a clear is not stored after it. */
  private clears = 0;

  constructor(opts: ResultCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.maxEntries = opts.maxEntries ?? 500;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.now = opts.now ?? (() => performance.now());
    this.indexGeneration = opts.generation ?? (() => 0);
    this.seenGeneration = this.indexGeneration();
  }

  get size(): number {
    return this.map.size;
  }

  /** The cached entry for `key`, or the result of `compute` (stored for `ttlMs`, default the cache's). */
  get(key: string, compute: () => unknown, ttlMs = this.ttlMs): Promise<CacheEntry> {
    const current = this.indexGeneration();
    if (current !== this.seenGeneration) {
      this.clear();
      this.seenGeneration = current;
    }
    const hit = this.map.get(key);
    if (hit) {
      if (hit.expires > this.now()) return Promise.resolve(hit);
      this.delete(key);
    }
    const running = this.pending.get(key);
    if (running) return running;
    const clears = this.clears;
    const job: Promise<CacheEntry> = Promise.resolve()
      .then(() => {
        // Read next to the (synchronous) query, so the entry names the generation its figures come from.
        const at = this.indexGeneration();
        return Promise.resolve(compute()).then((data) => entryOf(data, at));
      })
      .then((entry) => {
        if (clears === this.clears) this.store(key, { ...entry, expires: this.now() + ttlMs });
        return entry;
      })
      .finally(() => {
        if (this.pending.get(key) === job) this.pending.delete(key);
      });
    this.pending.set(key, job);
    return job;
  }

  clear(): void {
    this.map.clear();
    this.pending.clear();
    this.bytes = 0;
    this.clears++;
  }

  private store(key: string, s: Stored): void {
    this.delete(key);
    if (s.body.length > this.maxBytes) return;
    this.map.set(key, s);
    this.bytes += s.body.length;
    for (const oldest of this.map.keys()) {
      if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const s = this.map.get(key);
    if (!s) return;
    this.bytes -= s.body.length;
    this.map.delete(key);
  }
}
