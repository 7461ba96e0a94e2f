/**
 * The API market's key management and plan sales (README.md): keys created and rotated with the
 * secret shown once, plans bought from the balance with a quota credited, refunds, and the
 * signed-in user's `/api/me/…` routes. The gateway `/cloud/api/{code}` is an area of its own.
 */
import fp from 'fastify-plugin';
import type { EngineExtensions } from '../../resources/extensions.js';
import type { DomainArea } from '../area.js';
import { createKey, rotateKey } from './keys.js';
import { createOrder, refundOrder } from './orders.js';
import { apiMarketRoutes } from './routes.js';

function register(engine: EngineExtensions): void {
  engine.registerCreateHandler('apiKeys', createKey);
  engine.registerActionHandler('apiKeys', 'rotate', rotateKey);
  engine.registerCreateHandler('apiOrders', createOrder);
  engine.registerActionHandler('apiOrders', 'refund', refundOrder);
}

export const apiMarketArea: DomainArea = {
  name: 'api-market',
  register,
  routes: fp(apiMarketRoutes, { name: 'wanxiang-api-market', dependencies: ['wanxiang-database'] }),
};
