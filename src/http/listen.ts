// Binding rules (spec "Runtime configuration" 1 and "Authentication" 1, 6): bind the chosen host;
// on a loopback bind also the other loopback family on the same port, so `localhost` reaches us
// whichever address the browser tries first; fall back to a random free port (both families)
// when the port is taken; warn when the bind is reachable from the network.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListenOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
  log: (message: string) => void;
}

export interface Listening {
  port: number;
  /** One server per bound address (the primary first). */
  servers: http.Server[];
  close(): Promise<void>;
}

const RANDOM_PORT_TRIES = 5;
/**
 * A proxy in front (the hub's pools idle sockets) must never reuse a socket we are closing, so idle
 * keep-alive sockets live longer than any such pool (Node's default is 5 s, proxies commonly keep 60 s).
 * The headers timeout must exceed it, or Node closes a reused idle socket on that timer first.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export const HEADERS_TIMEOUT_MS = 66_000;

function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function listenOne(handler: http.RequestListener, port: number, host: string): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS }, handler);
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/** Binds the primary address and, on loopback, the other family on the same port; rejects with EADDRINUSE if either is taken. */
async function bindPair(handler: http.RequestListener, port: number, host: string): Promise<http.Server[]> {
  const primaryHost = host === 'localhost' ? '127.0.0.1' : host.replace(/^\[|\]$/g, '');
  const primary = await listenOne(handler, port, primaryHost);
  if (!isLoopbackAddress(host)) return [primary];
  const bound = (primary.address() as AddressInfo).port;
  const other = primaryHost === '::1' ? '127.0.0.1' : '::1';
  try {
    return [primary, await listenOne(handler, bound, other)];
  } catch (err) {
    // The machine has no such loopback family: one address is all there is.
    if (codeOf(err) === 'EADDRNOTAVAIL' || codeOf(err) === 'EAFNOSUPPORT') return [primary];
    await closeServer(primary);
    throw err;
  }
}

export async function listen(handler: http.RequestListener, opts: ListenOptions): Promise<Listening> {
  let servers: http.Server[] | null = null;
  try {
    servers = await bindPair(handler, opts.port, opts.host);
  } catch (err) {
    if (codeOf(err) !== 'EADDRINUSE') throw err;
    if (opts.port !== 0) opts.log(`Port ${opts.port} in use, trying random port...`);
  }
  // A random port can still be taken on the other family: try a few.
  for (let i = 0; !servers && i < RANDOM_PORT_TRIES; i++) {
    try {
      servers = await bindPair(handler, 0, opts.host);
    } catch (err) {
      if (codeOf(err) !== 'EADDRINUSE' || i === RANDOM_PORT_TRIES - 1) throw err;
    }
  }
  const bound = servers!;
  const port = (bound[0]!.address() as AddressInfo).port;
  if (!isLoopbackAddress(opts.host)) {
    opts.log(
      `Warning: listening on ${opts.host} port ${port}, reachable from the network with no authentication: ` +
        'anyone who can reach it can read your agent history.',
    );
  }
  let closing: Promise<void> | null = null;
  return {
    port,
    servers: bound,
    close: () => (closing ??= Promise.all(bound.map(closeServer)).then(() => undefined)),
  };
}
