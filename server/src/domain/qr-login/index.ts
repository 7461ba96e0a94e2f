/**
 * The scan-login area: its routes, the `login:<ticket>` topic of `/ws` (public: knowing the
 * ticket is the permission), and deleting old tickets off the request path.
 */
import { QR_TICKET_TTL_MS } from '@wanxiang/core';
import fp from 'fastify-plugin';
import type { DomainArea } from '../area.js';
import { qrLoginRoutes } from './routes.js';
import { deleteOldTickets } from './tickets.js';

export const TTL_ENV = 'WANXIANG_QR_TTL_MS';
const HOUSEKEEPING_EVERY_MS = 10 * 60_000;

/**
 * The ticket lifetime: 2 minutes (API.md). `WANXIANG_QR_TTL_MS` shortens it for end-to-end
 * tests of expiry only (1 000 … 120 000); anything else is refused at start.
 */
export function qrTicketTtlMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env[TTL_ENV]?.trim();
  if (!raw) return QR_TICKET_TTL_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1000 || n > QR_TICKET_TTL_MS) {
    throw new Error(`${TTL_ENV} must be an integer between 1000 and ${QR_TICKET_TTL_MS}, got "${raw}"`);
  }
  return n;
}

export const qrLoginPlugin = fp<{ ticketTtlMs?: number }>(
  async (app, options) => {
    const ticketTtlMs = options.ticketTtlMs ?? qrTicketTtlMs();
    app.hub.allow('login:', () => true);

    const timer = setInterval(async () => {
      try {
        await deleteOldTickets(app.db, app.config.now());
      } catch (err) {
        app.log.warn({ err }, 'scan-login housekeeping failed');
      }
    }, HOUSEKEEPING_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));

    // Routes stay encapsulated.
    await app.register(qrLoginRoutes, { ticketTtlMs });
  },
  { name: 'wanxiang-qr-login', dependencies: ['wanxiang-database', 'wanxiang-auth', 'wanxiang-ws'] },
);

export const qrLoginArea: DomainArea = {
  name: 'qrLogin',
  routes: async (app) => app.register(qrLoginPlugin),
};
