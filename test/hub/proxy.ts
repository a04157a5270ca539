// The conformance hub's proxy: what the browser sees as an app's origin, on a fixed port per app, as
// the public hub serves each app. It forwards Host, rewrites an Origin of its own to the app's,
// strips the hub's hub_token cookie and hop-by-hop headers, pools keep-alive sockets to the app (so
// it reuses an idle socket the app may be closing) and retries a failed connect: 250 ms apart, and
// after three failures it asks the supervisor, which pings the app over IPC or replaces it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];
const RETRY_MS = 250;
const FAILS_BEFORE_PING = 3;
/** After a pong, how long connects may keep failing before the app is replaced. */
const KEPT_RETRY_MS = 30_000;

export interface ProxyTarget {
  /** The app's current port (it changes when the app is restarted); null while none is ready. */
  port(): number | null;
  /** Three connects failed: true when the app answered the IPC ping (keep retrying), false when it was replaced. */
  unreachable(): Promise<boolean>;
  /** Connects still fail 30 s after a pong: start a new process. */
  replace(): Promise<void>;
}

export interface Proxy {
  port: number;
  url: string;
  /** Requests the proxy has forwarded, with the headers the app got (for tests of the rewrite). */
  forwarded: { method: string; path: string; headers: http.OutgoingHttpHeaders }[];
  /** Connections the proxy opened to the app (a reused keep-alive socket opens none). */
  upstreamSockets(): number;
  /** Connect failures retried so far. */
  retries(): number;
  close(): Promise<void>;
}

/** Request headers as the app gets them. */
export function forwardHeaders(headers: http.IncomingHttpHeaders, proxyOrigins: string[], appOrigin: string): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.includes(k) || named.includes(k)) continue;
    out[k] = v;
  }
  if (typeof out.origin === 'string' && proxyOrigins.includes(out.origin)) out.origin = appOrigin;
  if (typeof out.cookie === 'string') {
    const kept = out.cookie
      .split(';')
      .map((c) => c.trim())
      .filter((c) => c && !/^hub_token=/.test(c));
    if (kept.length) out.cookie = kept.join('; ');
    else delete out.cookie;
  }
  return out;
}

function responseHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.includes(k)) out[k] = v;
  return out;
}

const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function listenOn(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Listens on `preferred` (127.0.0.1 and, best effort, ::1), or a random free port when it is taken, as the hub does. */
export async function startProxy(preferred: number, target: ProxyTarget): Promise<Proxy> {
  const agent = new http.Agent({ keepAlive: true });
  let opened = 0;
  let retried = 0;
  const forwarded: Proxy['forwarded'] = [];
  const origins: string[] = [];

  /** One try; rejects with the connect error when nothing was sent back yet. */
  const attempt = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, appPort: number) =>
    new Promise<void>((resolve, reject) => {
      const headers = forwardHeaders(req.headers, origins, `http://localhost:${appPort}`);
      const up = http.request({ host: '127.0.0.1', port: appPort, method: req.method, path: req.url, headers, agent }, (upRes) => {
        forwarded.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers });
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, responseHeaders(upRes.headers));
        upRes.pipe(res);
        upRes.on('end', resolve);
        upRes.on('error', () => res.destroy());
      });
      up.on('socket', (s) => {
        if (!(s as { proxied?: boolean }).proxied) {
          (s as { proxied?: boolean }).proxied = true;
          opened++;
        }
      });
      up.on('error', reject);
      up.end(body);
    });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    let fails = 0;
    let keptSince: number | null = null;
    for (;;) {
      const port = target.port();
      try {
        if (port === null) throw Object.assign(new Error('no app process'), { code: 'ECONNREFUSED' });
        return await attempt(req, res, body, port);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? '';
        if (res.headersSent || !CONNECT_ERRORS.has(code)) {
          if (!res.headersSent) res.writeHead(502).end(`proxy: ${(err as Error).message}`);
          else res.destroy();
          return;
        }
        retried++;
        fails++;
        if (fails === FAILS_BEFORE_PING) {
          if (await target.unreachable()) keptSince = Date.now();
        } else if (keptSince !== null && Date.now() - keptSince > KEPT_RETRY_MS) {
          keptSince = null;
          fails = 0;
          await target.replace();
        }
        await sleep(RETRY_MS);
      }
    }
  };

  const listener: http.RequestListener = (req, res) => void handle(req, res);
  const v4 = http.createServer(listener);
  const v6 = http.createServer(listener);
  try {
    await listenOn(v4, preferred, '127.0.0.1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    await listenOn(v4, 0, '127.0.0.1');
  }
  const port = (v4.address() as AddressInfo).port;
  await listenOn(v6, port, '::1').catch(() => {});
  origins.push(`http://localhost:${port}`, `http://127.0.0.1:${port}`);
  return {
    port,
    url: `http://localhost:${port}`,
    forwarded,
    upstreamSockets: () => opened,
    retries: () => retried,
    close: async () => {
      agent.destroy();
      await Promise.all(
        [v4, v6].map((s) => new Promise<void>((r) => (s.listening ? (s.closeAllConnections(), s.close(() => r())) : r()))),
      );
    },
  };
}
