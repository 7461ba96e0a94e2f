/**
 * The server's scheduler as `app.scheduler`, holding every area's tasks (domain/areas.ts
 * `areaTasks`). It starts once the server listens — never under `app.inject()`, and not at all
 * with `SCHEDULER=off`, where tests drive it with `tick()` or run a body with `runBody()` — and
 * stops before the database closes, waiting for runs in progress.
 */
import fp from 'fastify-plugin';
import { Scheduler } from './scheduler.js';
import type { ScheduledTask } from './task.js';

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
  }
}

export interface SchedulerPluginOptions {
  tasks: readonly ScheduledTask[];
}

export const schedulerPlugin = fp<SchedulerPluginOptions>(
  async (app, options) => {
    const scheduler = new Scheduler({ db: app.db, now: app.config.now, log: app.log });
    for (const task of options.tasks) scheduler.register(task);
    app.decorate('scheduler', scheduler);
    if (app.config.scheduler) {
      app.addHook('onListen', async () => {
        scheduler.start();
        app.log.info({ holder: scheduler.holder, tasks: scheduler.names() }, 'scheduler started');
      });
    }
    // preClose: before any onClose hook, so the database is still open while runs end.
    app.addHook('preClose', async () => scheduler.stop());
  },
  { name: 'wanxiang-scheduler', dependencies: ['wanxiang-database'] },
);
