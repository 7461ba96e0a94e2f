/**
 * The server-monitor area. `requestStatsPlugin` is registered by app.ts before any route so
 * its hook counts every answer; the route itself comes with the other areas.
 */
import type { DomainArea } from '../area.js';
import { monitorRoutes } from './routes.js';

export { RequestStats, requestStatsPlugin } from './request-stats.js';

export const monitorArea: DomainArea = { name: 'monitor', routes: monitorRoutes };
