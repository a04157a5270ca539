/** Polls `check` until it returns true (or a value), failing with `what` after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Counts the event loop's turns from now on (one immediate each, queued again until `stop`): code that yields between
 * slices of its work lets the count grow while it runs; code that holds the thread does not.
 */
export function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let ticking = true;
  const tick = (): void => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop: () => void (ticking = false),
  };
}
