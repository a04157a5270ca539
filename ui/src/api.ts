// GET JSON from the local server with a 5-minute in-memory cache keyed by URL. Identical requests in flight share one
// fetch; the fetch is aborted only when every caller waiting on it has aborted. Nothing is written to storage.
// The shell listens for indexing progress and errors here, so views need no wiring for either.
import type { ApiError, IndexingState } from '../../src/shared/api-types.ts';

const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 200;

export interface GetOptions {
  /** Skip the cache (auto-refresh); the fresh answer replaces the cached one. */
  force?: boolean;
  /** A failure is this caller's alone to handle: no error listener hears of it (unless another caller shares it). */
  quiet?: boolean;
}

export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly url: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

interface Flight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiting: number;
  /** Every caller so far asked for quiet: a failure is not announced. */
  quiet: boolean;
}

type IndexingListener = (state: IndexingState) => void;
type ErrorListener = (err: Error, url: string) => void;
/** `generation`: the index generation the server computed the answer at (X-Index-Generation). */
type GenerationListener = (generation: number) => void;

const cache = new Map<string, { at: number; data: unknown }>();
const flights = new Map<string, Flight>();
const indexingListeners = new Set<IndexingListener>();
const errorListeners = new Set<ErrorListener>();
const generationListeners = new Set<GenerationListener>();

export function buildUrl(path: string, params: Record<string, string> = {}): string {
  const q = new URLSearchParams(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

function abortError(): Error {
  return new DOMException('The operation was aborted.', 'AbortError');
}

export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

async function readError(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<ApiError>;
    if (typeof body.error === 'string' && body.error) return body.error;
  } catch {
    /* not JSON: use the text or the status */
  }
  return text.trim().slice(0, 300) || `${res.status} ${res.statusText || 'error'}`.trim();
}

function noticeIndexing(data: unknown): void {
  const idx = (data as { indexing?: IndexingState } | null)?.indexing;
  if (idx && typeof idx === 'object' && typeof idx.done === 'boolean') for (const l of indexingListeners) l(idx);
}

async function load(url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: 'application/json' } });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw new Error(`Cannot reach the server (${(err as Error).message})`);
  }
  if (!res.ok) throw new HttpError(await readError(res), res.status, url);
  const data = (await res.json()) as unknown;
  const generation = Number(res.headers.get('x-index-generation') ?? NaN);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.delete(url);
  cache.set(url, { at: Date.now(), data });
  noticeIndexing(data);
  if (Number.isInteger(generation)) for (const l of generationListeners) l(generation);
  return data;
}

function startFlight(url: string, quiet: boolean): Flight {
  const controller = new AbortController();
  const flight: Flight = { controller, waiting: 0, promise: Promise.resolve(), quiet };
  flight.promise = load(url, { signal: controller.signal }).finally(() => {
    if (flights.get(url) === flight) flights.delete(url);
  });
  flight.promise.catch((err: unknown) => {
    if (!isAbort(err) && !flight.quiet) for (const l of errorListeners) l(err as Error, url);
  });
  flights.set(url, flight);
  return flight;
}

/** Waits on a shared flight; this caller's abort leaves the flight running for the others. */
function join<T>(flight: Flight, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortError());
  flight.waiting++;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const leave = () => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      flight.waiting--;
    };
    const onAbort = () => {
      leave();
      if (flight.waiting === 0) flight.controller.abort();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    flight.promise.then(
      (v) => {
        if (settled) return;
        leave();
        resolve(v as T);
      },
      (e: unknown) => {
        if (settled) return;
        leave();
        reject(e);
      },
    );
  });
}

export const api = {
  /** GET `path` with `params` as JSON. Rejects with an Error whose message is the server's `{error}` text or the status. */
  get<T>(path: string, params: Record<string, string> = {}, signal?: AbortSignal, opts: GetOptions = {}): Promise<T> {
    const url = buildUrl(path, params);
    if (!opts.force) {
      const hit = cache.get(url);
      if (hit && Date.now() - hit.at < TTL_MS) {
        if (signal?.aborted) return Promise.reject(abortError());
        noticeIndexing(hit.data);
        return Promise.resolve(hit.data as T);
      }
    }
    // A flight its last waiter aborted is still in the map until its fetch settles: a new caller must not join it.
    const quiet = opts.quiet === true;
    const shared = flights.get(url);
    const flight = shared && !shared.controller.signal.aborted ? shared : startFlight(url, quiet);
    if (!quiet) flight.quiet = false;
    return join<T>(flight, signal);
  },

  /** POST with no body (e.g. /api/refresh). */
  async post<T>(path: string): Promise<T> {
    const res = await fetch(path, { method: 'POST', headers: { accept: 'application/json' } });
    if (!res.ok) throw new HttpError(await readError(res), res.status, path);
    return (await res.json()) as T;
  },

  /** A change with a JSON body (POST, DELETE); rejects with the server's `{error}` text, as get does. */
  async send<T>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const res = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new HttpError(await readError(res), res.status, path);
    return (await res.json()) as T;
  },

  /** Forget every cached answer so the next get of each URL fetches again (keeps in-flight requests). */
  invalidate(): void {
    cache.clear();
  },

  /** Fresh `indexing` state of every response that carries one; returns the unsubscribe function. */
  onIndexing(fn: IndexingListener): () => void {
    indexingListeners.add(fn);
    return () => indexingListeners.delete(fn);
  },

  /** The index generation of every answer fetched from the server (not of cached ones); returns the unsubscribe function. */
  onGeneration(fn: GenerationListener): () => void {
    generationListeners.add(fn);
    return () => generationListeners.delete(fn);
  },

  /** Every failed request (aborts excluded), for the shell's toasts. */
  onError(fn: ErrorListener): () => void {
    errorListeners.add(fn);
    return () => errorListeners.delete(fn);
  },
};
