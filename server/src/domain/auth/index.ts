/** The auth area: decorators shared by every route, its own routes, and table housekeeping. */
import fp from 'fastify-plugin';
import { authPlugin } from './auth-plugin.js';
import { authBootstrapPlugin } from './bootstrap.js';
import { authHousekeepingPlugin } from './housekeeping.js';
import { authRoutes } from './routes.js';

export { type AuthUser, signedIn } from './auth-plugin.js';
export type { InitialUsersReport } from './initial-users.js';
export { revokeUserSessions } from './sessions.js';

export const authArea = fp(
  async (app) => {
    await app.register(authBootstrapPlugin);
    await app.register(authPlugin);
    await app.register(authHousekeepingPlugin);
    // Routes stay encapsulated; only the decorators are shared.
    await app.register(authRoutes);
  },
  { name: 'wanxiang-auth-area' },
);
