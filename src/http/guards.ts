// Local-access guards (spec "Authentication"). The server has no authentication, so these keep it
// local: a Host check against DNS rebinding, an Origin / Sec-Fetch-Site check against cross-site
// writes, and framing headers. They run before any route; a blocked request gets a plain-text 403.
//
// Loopback names accepted in Host: `localhost`, any `*.localhost` (RFC 6761: browsers resolve
// these to loopback without DNS, so they cannot be rebound), any 127.0.0.0/8 literal and `[::1]`.
// The port in Host is ignored. A missing or malformed Host is rejected.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendText } from './send.ts';

export interface GuardOptions {
  /** Lower-cased extra host names (--allowed-hosts); a port in an entry is ignored. */
  allowedHosts: string[];
  /** The bind address (--host). */
  boundHost: string;
  /** Hub origin (HUB_URL), null when not under a hub. */
  hubUrl: string | null;
  /** The port actually bound (known only after listen). */
  port: () => number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const IPV6_HOST = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/;
const NAME_HOST = /^([a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)(?::(\d{1,5}))?$/;

/** The host name of a Host header value (lower case, IPv6 without brackets), or null when malformed. */
export function hostNameOf(value: string): string | null {
  const v = value.trim().toLowerCase();
  const m = IPV6_HOST.exec(v) ?? NAME_HOST.exec(v);
  if (!m) return null;
  if (m[2] !== undefined && Number(m[2]) > 65535) return null;
  return m[1]!.replace(/\.$/, '');
}

export function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/** A bind address (--host) that only this machine can reach. */
export function isLoopbackBind(host: string): boolean {
  const name = hostNameOf(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return name !== null && isLoopbackName(name);
}

function hostAllowed(name: string, allowed: Set<string>): boolean {
  return isLoopbackName(name) || allowed.has(name);
}

/**
 * A write from a browser must come from the hub origin or a loopback origin on our own port
 * (no port in the origin passes, as the spec words it). An origin equal to the Host the client
 * addressed is same-origin by definition (this covers the hub's proxy port and --allowed-hosts).
 */
function originAllowed(origin: string, host: string, opts: GuardOptions): boolean {
  if (opts.hubUrl !== null && origin === opts.hubUrl) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const name = url.hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackName(name) && (url.port === '' || Number(url.port) === opts.port())) return true;
  return url.protocol === 'http:' && url.host === host.trim().toLowerCase();
}

/** Security headers every response carries. */
function framingHeaders(hubUrl: string | null): [string, string][] {
  const common: [string, string][] = [['X-Content-Type-Options', 'nosniff']];
  if (hubUrl === null) {
    return [...common, ['Content-Security-Policy', "frame-ancestors 'none'"], ['X-Frame-Options', 'DENY']];
  }
  return [...common, ['Content-Security-Policy', `frame-ancestors http://localhost:* http://127.0.0.1:* ${hubUrl}`]];
}

export function createGuards(opts: GuardOptions) {
  const allowed = new Set(opts.allowedHosts.map((h) => hostNameOf(h)).filter((h): h is string => h !== null));
  const bound = hostNameOf(opts.boundHost.includes(':') && !opts.boundHost.startsWith('[') ? `[${opts.boundHost}]` : opts.boundHost);
  if (bound) allowed.add(bound);
  const headers = framingHeaders(opts.hubUrl);

  return function guards(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    for (const [k, v] of headers) res.setHeader(k, v);

    const host = req.headers.host;
    const name = host === undefined ? null : hostNameOf(host);
    if (host === undefined || name === null) return sendText(res, 403, 'Forbidden: missing or malformed Host header');
    if (!hostAllowed(name, allowed)) {
      return sendText(res, 403, `Forbidden: host "${name}" is not allowed (use --allowed-hosts to accept it)`);
    }

    if (!SAFE_METHODS.has(req.method ?? 'GET')) {
      const refusal = crossSiteRefusal(req, host, opts);
      if (refusal) return sendText(res, 403, refusal);
    }
    next();
  };
}

/** Why a request from another site is refused (the Origin and Sec-Fetch-Site checks), or null when it may pass. */
function crossSiteRefusal(req: IncomingMessage, host: string, opts: GuardOptions): string | null {
  const origin = req.headers.origin;
  if (origin !== undefined) return originAllowed(origin, host, opts) ? null : `Forbidden: origin ${origin} is not allowed`;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Forbidden: cross-site request (Sec-Fetch-Site: ${site})`;
  return null;
}

/**
 * Route middleware for the routes that start a process (the agent CLI runs the user's hooks): the write
 * checks apply to every method there, since a page on any site can make a browser send a GET (an image,
 * a link) and the response need not be readable to do harm. Runs after the Host check of `createGuards`.
 * /metrics uses it too: its figures are for a scraper, never for a page of another site.
 */
export function createProcessGuard(opts: GuardOptions) {
  return function processGuard(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const refusal = crossSiteRefusal(req, req.headers.host ?? '', opts);
    if (refusal) return sendText(res, 403, refusal);
    next();
  };
}

/**
 * Route middleware for the GETs that read the index (the data routes, the budgets): a browser marks a request another
 * site's page made (an `<img>`, a link) `Sec-Fetch-Site: cross-site`, and no such page can read the answer, so it only
 * costs the server its work. Refused before any query runs. Same-site requests pass: a hub on another loopback port is
 * the same site, and the dashboard's own fetches are same-origin.
 */
export function createDataReadGuard() {
  return function dataReadGuard(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (req.headers['sec-fetch-site'] === 'cross-site') return sendText(res, 403, 'Forbidden: cross-site request (Sec-Fetch-Site: cross-site)');
    next();
  };
}
