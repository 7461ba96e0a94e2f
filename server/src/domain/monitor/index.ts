/**
 * The server-monitor area. `requestStatsPlugin` is registered by app.ts before any route so
 * its hook counts every answer; the route itself comes with the other areas.
 */
export { RequestStats, requestStatsPlugin } from './request-stats.js';
export { monitorRoutes } from './routes.js';
