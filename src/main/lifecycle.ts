// Idempotent shutdown in reverse start order; SIGINT/SIGTERM and (under a hub) a closed IPC channel end the process.
import type { Log } from './log.ts';

export interface Lifecycle {
  /** Registers a closer; closers run last-registered first. */
  add(name: string, close: () => unknown): void;
  close(): Promise<void>;
}

export function createLifecycle(log: Log): Lifecycle {
  const closers: { name: string; close: () => unknown }[] = [];
  let closing: Promise<void> | null = null;
  return {
    add(name, close) {
      closers.push({ name, close });
    },
    close() {
      closing ??= (async () => {
        for (const c of closers.reverse()) {
          try {
            await c.close();
          } catch (err) {
            log(`closing ${c.name}: ${err instanceof Error ? err.message : String(err)}`);
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
}
