/**
 * Monitor jobs (DOMAIN.md "Monitoring"): http, keyword, tcp and browser checks run on a
 * scheduler of their own, recorded as heartbeats with hourly and daily roll-ups, alerts on
 * status flips. README.md has the decisions.
 */
import { can } from '@wanxiang/core';
import fp from 'fastify-plugin';
import type { DomainArea } from '../area.js';
import { register } from './actions.js';
import { adminJobRoutes } from './admin-routes.js';
import { monitorTasks } from './housekeeping.js';
import { meJobRoutes } from './me-routes.js';
import { MONITOR_TOPIC } from './record.js';
import { MonitorRunner } from './runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    monitorJobs: MonitorRunner;
  }
}

export { MonitorRunner, monitorRunnerOf } from './runner.js';

export const monitorJobsPlugin = fp(
  async (app) => {
    const runner = new MonitorRunner({
      db: app.db,
      dialect: app.dbDialect,
      now: app.config.now,
      log: app.log.child({ area: 'monitorJobs' }),
      publish: (topic, data) => app.hub.publish(topic, data),
      blobs: app.blobs,
      settings: app.config.monitoring,
    });
    app.decorate('monitorJobs', runner);
    // Admin screens (whoever may read monitor jobs) hear every job; a user hears their own.
    app.hub.allowTopic(MONITOR_TOPIC, (user) => user !== null && can(user.permissions, 'monitor', 'read'));
    app.hub.allow('monitor:user:', (user, topic) => user !== null && topic === `monitor:user:${user.id}`);
    if (app.config.scheduler) app.addHook('onListen', async () => runner.start());
    // Before the database closes: no new checks, checks in flight told to stop, browser closed.
    app.addHook('preClose', async () => runner.stop());
    await app.register(meJobRoutes);
    await app.register(adminJobRoutes);
  },
  { name: 'wanxiang-monitor-jobs', dependencies: ['wanxiang-database'] },
);

export const monitorJobsArea: DomainArea = {
  name: 'monitorJobs',
  register,
  routes: monitorJobsPlugin,
  tasks: monitorTasks,
};
