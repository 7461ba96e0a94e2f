/**
 * At every start: roles re-synced from core's ROLES, and on the first start the admin and
 * demo accounts. What was created is kept as `app.startup` so start.ts can tell the operator
 * (generated passwords are printed once and never logged).
 */
import fp from 'fastify-plugin';
import { ensureInitialUsers, type InitialUsersReport } from './initial-users.js';
import { prepareDummyHash } from './passwords.js';
import { seedRoles } from './roles.js';

declare module 'fastify' {
  interface FastifyInstance {
    startup: InitialUsersReport;
  }
}

export const authBootstrapPlugin = fp(
  async (app) => {
    await seedRoles(app.db);
    // Hashed alongside the first-start accounts, on the thread pool.
    const dummy = prepareDummyHash();
    const report = await ensureInitialUsers(app.db, {
      adminPassword: app.config.adminPassword,
      demoUsers: app.config.demoUsers,
      demoPassword: app.config.demoPassword,
      now: app.config.now(),
    });
    await dummy;
    app.decorate('startup', report);
  },
  { name: 'wanxiang-auth-bootstrap', dependencies: ['wanxiang-database'] },
);
