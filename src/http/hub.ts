// Hub routes (hub protocol "SDK" and "HTTP routes"). Under a hub, the hub's server SDK registers
// GET /hub-config and its client SDK route through `require(HUB_SDK_SERVER).mount(app)`. That SDK
// expects an Express app, so it gets a small Express-style adapter over Polka. Everything here is
// registered before the static files, so the hub's client wins over our stub in ui/vendor.
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Middleware, NextHandler, Polka, Request } from 'polka';

/** The SDK route of each hub naming (spec: agent, public hub: claude); whichever mount registers is served at both. */
const SDK_ROUTES = ['/vendor/agent-hub-sdk.js', '/vendor/claude-hub-sdk.js'];

const MIME: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** The part of Express's response that hub SDKs use. Methods are added onto the real ServerResponse, as Express does. */
export interface ExpressResponse extends ServerResponse {
  status(code: number): ExpressResponse;
  type(type: string): ExpressResponse;
  set(field: string | Record<string, string>, value?: string): ExpressResponse;
  header(field: string | Record<string, string>, value?: string): ExpressResponse;
  send(body?: string | Buffer | object | null): ExpressResponse;
  json(body: unknown): ExpressResponse;
  sendFile(file: string, options?: unknown, done?: (err?: Error) => void): void;
}

type ExpressHandler = (req: Request, res: ExpressResponse, next: (err?: unknown) => void) => unknown;

/** What `mount(app)` is given: the Express methods an SDK may call to register GET routes. */
export interface ExpressAdapter {
  get(route: string, ...handlers: ExpressHandler[]): ExpressAdapter;
}

function mimeOf(type: string): string {
  return type.includes('/') ? type : (MIME[type.replace(/^\./, '').toLowerCase()] ?? 'application/octet-stream');
}

function expressResponse(req: Request, raw: ServerResponse): ExpressResponse {
  const res = raw as ExpressResponse;
  const set = (field: string | Record<string, string>, value?: string): ExpressResponse => {
    if (typeof field === 'string') res.setHeader(field, value ?? '');
    else for (const [k, v] of Object.entries(field)) res.setHeader(k, v);
    return res;
  };
  return Object.assign(res, {
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    type(type: string) {
      res.setHeader('Content-Type', mimeOf(type));
      return res;
    },
    set,
    header: set,
    send(body?: string | Buffer | object | null) {
      if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) return res.json(body);
      const buf = body === undefined || body === null ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(String(body));
      if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', mimeOf(Buffer.isBuffer(body) ? 'bin' : 'html'));
      res.setHeader('Content-Length', buf.length);
      res.end(req.method === 'HEAD' ? undefined : buf);
      return res;
    },
    json(body: unknown) {
      if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', mimeOf('json'));
      return res.send(JSON.stringify(body));
    },
    sendFile(file: string, options?: unknown, done?: (err?: Error) => void) {
      const cb = typeof options === 'function' ? (options as (err?: Error) => void) : done;
      fs.readFile(file, (err, buf) => {
        if (err) {
          if (cb) return cb(err);
          res.statusCode = 404;
          return res.end('Not found');
        }
        if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', mimeOf(path.extname(file)));
        res.send(buf);
        cb?.();
      });
    },
  });
}

/** Wraps an Express handler as a Polka one. The SDK file changes with the hub, so it is never cached. */
function polkaHandler(route: string, handlers: ExpressHandler[]): Middleware {
  return async (req: Request, res: ServerResponse, next: NextHandler): Promise<void> => {
    if (SDK_ROUTES.includes(route)) res.setHeader('Cache-Control', 'no-cache');
    const eres = expressResponse(req, res);
    let i = 0;
    const step = async (err?: unknown): Promise<void> => {
      const h = handlers[i++];
      if (err !== undefined || !h) return void next(err as string | Error | undefined);
      await h(req, eres, (e) => void step(e));
    };
    await step();
  };
}

/** The hub's environment: AGENT_HUB set (hub), the hub's origin (HUB_URL) and its server SDK file (HUB_SDK_SERVER). */
export interface HubConfig {
  hub: boolean;
  hubUrl: string | null;
  hubSdkServer: string | null;
}

/**
 * Mounts the hub's server SDK (when HUB_SDK_SERVER is set) and the hub fallbacks. A missing or
 * throwing SDK file is logged and the app keeps running with whatever it registered.
 */
export function mountHub(app: Polka, config: HubConfig, log: (m: string) => void): void {
  const registered = new Map<string, ExpressHandler[]>();
  const adapter: ExpressAdapter = {
    get(route, ...handlers) {
      if (typeof route !== 'string' || registered.has(route)) return adapter;
      registered.set(route, handlers);
      app.get(route, polkaHandler(route, handlers));
      return adapter;
    },
  };

  if (config.hubSdkServer !== null) {
    try {
      const sdk = createRequire(import.meta.url)(config.hubSdkServer) as { mount?: unknown };
      if (typeof sdk.mount !== 'function') throw new Error('it exports no mount()');
      sdk.mount(adapter);
    } catch (err) {
      log(`hub SDK ${config.hubSdkServer} not mounted: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }

  const sdkRoute = SDK_ROUTES.find((r) => registered.has(r));
  if (sdkRoute !== undefined) {
    for (const alias of SDK_ROUTES) if (!registered.has(alias)) adapter.get(alias, ...registered.get(sdkRoute)!);
  }

  if (config.hub && !registered.has('/hub-config')) {
    adapter.get('/hub-config', (_req, res) => res.json({ enabled: true, url: config.hubUrl }));
  }
}
