// Tiny logger: everything but the ready line goes to stderr, so the hub's stdout match sees one line only.
export type Log = (message: string) => void;

export const log: Log = (message) => {
  process.stderr.write(`[cost] ${message}\n`);
};
