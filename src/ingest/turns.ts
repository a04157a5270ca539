// How the server's background work takes its turns on the main thread (issue 35: no answer waits on a big one). The
// watcher's walk, the re-checks and the stored keys read ahead run a slice at a time; a request arriving mid-slice
// waits for the rest of it. At 10 GiB the walk alone (chokidar's lstat of every entry) spent ~1 s of main-thread CPU
// in a warm start's first seconds, and a 7-day overview answered in 1.5 ms settled took 7-11 ms (p50) then
// (bench/RESULTS.md). So while requests keep coming, a slice waits until they pause, within a bound that still lets
// the background have a share of the time: a second of work in the background never starves, it goes slower.

/** A wait between two slices of background work. */
export type Turn = () => Promise<void>;

/** The next turn of the event loop: I/O (a request) waiting meanwhile goes first. */
export const nextTurn: Turn = () => new Promise((resolve) => setImmediate(resolve));

export interface GivingWay {
  /** A request came or was answered (the server calls it for each, at both ends). */
  seen(): void;
  /** The wait before the next slice: the next turn, and while requests come, until they pause (bounded). */
  turn: Turn;
}

export interface GivingWayOptions {
  /** The pause after a request's last sign that counts as quiet. */
  quietMs?: number;
  /** While requests come, a slice waits up to this many times as long as the background ran since its last turn. */
  factor?: number;
  /** The longest wait of one turn. */
  maxWaitMs?: number;
}

/**
 * 40 ms of quiet: a dashboard's page asks its questions in one burst. Under a stream of requests the background keeps
 * a quarter of the time (factor 3), each turn waiting at most 2 s: with a twentieth, a client polling every 20 ms
 * after a warm start at 10 GiB held the watcher's walk back several times as long (bench/RESULTS.md, stop 31).
 */
export function createGivingWay({ quietMs = 40, factor = 3, maxWaitMs = 2_000 }: GivingWayOptions = {}): GivingWay {
  const clock = (): number => performance.now();
  let lastSeen = Number.NEGATIVE_INFINITY;
  let released = clock();
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.ceil(ms))));
  return {
    seen: () => {
      lastSeen = clock();
    },
    async turn() {
      const called = clock();
      // The background's stretch since its last turn; a job starting after a long pause counts as a long stretch.
      const until = called + Math.min(maxWaitMs, (called - released) * factor);
      await nextTurn();
      for (let t = clock(); t - lastSeen < quietMs && t < until; t = clock()) await sleep(Math.min(lastSeen + quietMs, until) - t);
      released = clock();
    },
  };
}
