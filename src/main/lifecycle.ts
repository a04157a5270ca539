// Idempotent shutdown in reverse start order; SIGINT/SIGTERM/SIGHUP and (under a hub) a closed IPC channel end the process.
import type { Log } from '../ingest/log.ts';

export interface CloseOptions {
  /**
   * The closer is synchronous and must run even when something calls process.exit() first: under a
   * hub, the hub SDK exits the process as soon as the IPC channel closes, mid-shutdown or before it.
   */
  atExit?: boolean;
}

export interface Lifecycle {
  /** Registers a closer; closers run last-registered first. */
  add(name: string, close: () => unknown, opts?: CloseOptions): void;
  close(): Promise<void>;
}

interface Closer {
  name: string;
  close: () => unknown;
  atExit: boolean;
  started: boolean;
}

export function createLifecycle(log: Log): Lifecycle {
  const closers: Closer[] = [];
  let closing: Promise<void> | null = null;
  const run = (c: Closer): unknown => {
    c.started = true;
    return c.close();
  };
  const fail = (c: Closer, err: unknown) => log(`closing ${c.name}: ${err instanceof Error ? err.message : String(err)}`);
  // Last resort, synchronous: whatever process.exit() cut short, the atExit closers that have not run yet run now.
  process.once('exit', () => {
    for (const c of [...closers].reverse()) {
      if (!c.atExit || c.started) continue;
      try {
        run(c);
      } catch (err) {
        fail(c, err);
      }
    }
  });
  return {
    add(name, close, opts = {}) {
      closers.push({ name, close, atExit: opts.atExit === true, started: false });
    },
    close() {
      closing ??= (async () => {
        for (const c of [...closers].reverse()) {
          if (c.started) continue;
          try {
            await run(c);
          } catch (err) {
            fail(c, err);
          }
        }
      })();
      return closing;
    },
  };
}

export function exitOnSignals(lifecycle: Lifecycle): void {
  const stop = (code: number) => () => {
    void lifecycle.close().then(() => process.exit(code));
  };
  process.once('SIGINT', stop(0));
  process.once('SIGTERM', stop(0));
  // A closed terminal or a hub that ends by SIGHUP: its default action would skip every closer.
  process.once('SIGHUP', stop(0));
}
