/**
 * Security headers for every answer (helmet) and `Cache-Control: no-store` for the API, so
 * proxies and browsers never keep a user's data.
 *
 * No HSTS: the server speaks plain HTTP and HSTS only means something over HTTPS; the TLS
 * terminator in front of it (nginx, a load balancer) is the place to add it (see CONFIG.md).
 */
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** The JSON API, and the API market's gateway below /cloud/api/ (API.md; /cloud/api itself is a page). */
export function isApiPath(url: string): boolean {
  return (
    url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url.startsWith('/cloud/api/')
  );
}

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // antd (cssinjs) writes <style> elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      mediaSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: false,
  // Images and audio may be embedded by other sites (blog posts); the default same-origin breaks that.
  crossOriginResourcePolicy: { policy: 'same-site' },
};

/**
 * The headers helmet sets, worked out once: none of them depends on the request (no nonces), and
 * running helmet's middleware on every answer cost ~3 % of a list request's time.
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(options)({} as never, res as never, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return headers;
}

export const securityPlugin = fp(
  async (app) => {
    const headers = securityHeaders();
    // onRequest, as @fastify/helmet does: errors and 404s get them too.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      // Routes that set their own caching (immutable files) keep it; other API answers are never cached.
      if (isApiPath(request.url) && !reply.hasHeader('cache-control'))
        reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'wanxiang-security' },
);
