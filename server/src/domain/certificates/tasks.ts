/**
 * Scheduled certificate checks: one sweep task, `certificates.check`, every minute, takes the
 * jobs that are due (never checked, or `lastCheckAt + intervalS` passed) — at most a batch per
 * run, a few at a time. One task rather than one per job (monitor jobs have one each): a
 * certificate job runs every few hours, so a minute's lateness is nothing, and one lease keeps
 * two processes from checking the same job twice in a period.
 */
import type { FastifyInstance } from 'fastify';
import type { AnyDb } from '../../resources/extensions.js';
import type { ScheduledTask } from '../../scheduler/task.js';
import { dueJobIds, sslJobOf } from './jobs.js';
import { checkJob } from './service.js';
import { settingsOf } from './settings.js';

export const SWEEP_EVERY_MS = 60_000;
/** Jobs one sweep checks at most; the rest wait for the next minute. */
export const SWEEP_BATCH = 50;
/** Handshakes at the same time within a sweep. */
export const SWEEP_PARALLEL = 5;

export function certificateTasks(app: FastifyInstance): ScheduledTask[] {
  const db = app.db as unknown as AnyDb;
  return [
    {
      name: 'certificates.check',
      everyMs: SWEEP_EVERY_MS,
      // Above the longest sweep: every step of every check may take the timeout.
      leaseMs: Math.max(30_000, settingsOf(db).timeoutMs * 4 * 2),
      async run(ctx) {
        const env = {
          db,
          now: ctx.now,
          timeoutMs: settingsOf(db).timeoutMs,
          publish: (topic: string, data: unknown) => app.hub.publish(topic, data),
        };
        const ids = await dueJobIds(db, ctx.now(), SWEEP_BATCH);
        let next = 0;
        const worker = async () => {
          while (next < ids.length && !ctx.signal.aborted) {
            const id = ids[next++] as number;
            const job = await sslJobOf(db, id);
            if (!job) continue;
            try {
              await checkJob(env, job, ctx.log);
            } catch (err) {
              ctx.log.error({ err, sslJobId: id }, 'certificate check failed');
            }
          }
        };
        await Promise.all(Array.from({ length: SWEEP_PARALLEL }, worker));
      },
    },
  ];
}
