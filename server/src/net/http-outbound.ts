/**
 * HTTP(S) requests the server makes for users (monitor jobs), under the outbound policy
 * (outbound.ts):
 *
 * - each hop's host is resolved once and every address checked (`resolveOutbound`); the request
 *   then goes to that very IP address (the URL's name is kept for the Host header, SNI and the
 *   certificate check), so a DNS answer that changes between check and connect changes nothing;
 * - redirects are followed by hand, never by a library: every hop's target is checked again, so
 *   a public page cannot send the server to a loopback or metadata address; at most
 *   `maxRedirects` hops (default 10);
 * - one timeout for the whole request, redirects included, and the caller's `signal` (shutdown);
 * - at most `maxBodyBytes` of the body are read (default 1 MiB), the rest is dropped;
 * - TLS errors (self-signed, expired, wrong host) fail the request unless `ignoreTls`.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { type OutboundPolicy, type OutboundTarget, resolveOutbound } from './outbound.js';

export const DEFAULT_MAX_REDIRECTS = 10;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Resolves and checks a host; tests may stand in for DNS, the policy stays the caller's. */
export type OutboundResolver = (
  host: string,
  policy: OutboundPolicy,
  options: { timeoutMs: number },
) => Promise<OutboundTarget[]>;

export interface HttpOutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  policy: OutboundPolicy;
  timeoutMs: number;
  followRedirects?: boolean;
  maxRedirects?: number;
  ignoreTls?: boolean;
  maxBodyBytes?: number;
  signal?: AbortSignal;
  resolve?: OutboundResolver;
}

export interface HttpOutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
  body: Buffer;
  /** The body was longer than maxBodyBytes and was cut there. */
  truncated: boolean;
}

/** The request (redirects included) took longer than its timeout. */
export class HttpTimeoutError extends Error {
  override name = 'HttpTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`超时（${timeoutMs} 毫秒）`);
  }
}

/** More redirects than allowed, or a redirect without a usable Location. */
export class HttpRedirectError extends Error {
  override name = 'HttpRedirectError';
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Makes the request; throws the outbound errors, HttpTimeoutError, HttpRedirectError or a socket error. */
export async function httpOutbound(req: HttpOutboundRequest): Promise<HttpOutboundResponse> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new HttpTimeoutError(req.timeoutMs)), req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
  const resolve = req.resolve ?? resolveOutbound;
  const maxRedirects = req.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = new URL(req.url);
  let method = (req.method ?? 'GET').toUpperCase();
  let body = req.body;
  try {
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new HttpRedirectError(`不支持的跳转地址（${url.protocol}）`);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const targets = await abortable(resolve(host, req.policy, { timeoutMs: req.timeoutMs }), signal);
      const res = await requestTargets(targets, url, { ...req, method, body }, signal);
      const location = res.headers.location;
      if (req.followRedirects === false || !REDIRECT_STATUSES.has(res.status) || !location)
        return { ...res, url: url.toString(), redirects: hop };
      if (hop >= maxRedirects) throw new HttpRedirectError(`跳转次数过多（超过 ${maxRedirects} 次）`);
      url = new URL(location, url);
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
      }
    }
  } catch (error) {
    if (signal.aborted && signal.reason instanceof HttpTimeoutError) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

type OneRequest = Omit<HttpOutboundRequest, 'url'> & { method: string };

/** The request to the first checked address that connects (the next on a connection error). */
async function requestTargets(
  targets: readonly OutboundTarget[],
  url: URL,
  req: OneRequest,
  signal: AbortSignal,
): Promise<Omit<HttpOutboundResponse, 'url' | 'redirects'>> {
  let failure: unknown = new Error('no address to connect to');
  for (const target of targets) {
    try {
      return await requestOne(target, url, req, signal);
    } catch (error) {
      failure = error;
      const code = (error as NodeJS.ErrnoException).code;
      // Only a failure to connect moves on to the next address; anything later is the answer.
      if (signal.aborted || !(code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH'))
        throw error;
    }
  }
  throw failure;
}

function requestOne(
  target: OutboundTarget,
  url: URL,
  req: OneRequest,
  signal: AbortSignal,
): Promise<Omit<HttpOutboundResponse, 'url' | 'redirects'>> {
  const maxBody = req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = { 'user-agent': 'wanxiang-monitor/1' };
  // The Host header is the URL's (the connection goes to the checked address); lengths are ours.
  for (const [name, value] of Object.entries(req.headers ?? {}))
    if (!/^(host|content-length|transfer-encoding|connection)$/i.test(name))
      headers[name.toLowerCase()] = value;
  headers.host = url.host;
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  const options: https.RequestOptions = {
    hostname: target.address,
    family: target.family,
    port: url.port || (secure ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: req.method,
    headers,
    agent: false,
    signal,
  };
  if (secure) {
    // SNI and the certificate check use the URL's name, not the pinned address.
    if (!net.isIP(target.host)) options.servername = target.host;
    options.rejectUnauthorized = !req.ignoreTls;
  }
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          truncated,
        });
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBody - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBody;
          truncated = true;
          res.destroy();
          done();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', (error) => (truncated ? undefined : reject(error)));
    });
    request.on('error', reject);
    request.end(req.body);
  });
}

/** The body as text, in the charset the response declares (UTF-8 when none or unknown). */
export function decodeBody(res: Pick<HttpOutboundResponse, 'headers' | 'body'>): string {
  const type = String(res.headers['content-type'] ?? '');
  const charset = /charset=["']?([\w-]+)/i.exec(type)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(res.body);
  } catch {
    return new TextDecoder('utf-8').decode(res.body);
  }
}
