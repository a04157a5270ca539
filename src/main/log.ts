// Tiny logger: everything but the ready line goes to stderr, so the hub's stdout match sees one line only.
// Debug lines only with COST_DEBUG=1.
const debugOn = process.env.COST_DEBUG === '1';

export type Log = (message: string) => void;

export const log: Log = (message) => {
  process.stderr.write(`[cost] ${message}\n`);
};

export const debug: Log = (message) => {
  if (debugOn) process.stderr.write(`[cost:debug] ${message}\n`);
};
