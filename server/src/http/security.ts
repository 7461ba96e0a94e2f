/**
 * Security headers for every answer (helmet) and `Cache-Control: no-store` for the API, so
 * proxies and browsers never keep a user's data.
 *
 * No HSTS: the server speaks plain HTTP and HSTS only means something over HTTPS; the TLS
 * terminator in front of it (nginx, a load balancer) is the place to add it (see CONFIG.md).
 */
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

export const securityPlugin = fp(
  async (app) => {
    await app.register(helmet, {
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
    });
    app.addHook('onSend', async (request, reply) => {
      // Routes that set their own caching (immutable files) keep it; other API answers are never cached.
      if (isApiPath(request.url) && !reply.hasHeader('cache-control'))
        reply.header('cache-control', 'no-store');
    });
  },
  { name: 'wanxiang-security' },
);
