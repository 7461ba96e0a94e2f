/**
 * `monitor.retention` (a leased task of the areas' scheduler, once per cluster every hour):
 * raw heartbeats older than MONITOR_RETENTION_DAYS go, hourly roll-ups as old go too, daily
 * roll-ups are kept DAY_ROLLUPS_KEPT_DAYS. Hourly runs keep each delete about an hour's worth of
 * rows, so no statement holds the database for long.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import type { ScheduledTask } from '../../scheduler/task.js';
import { ROLLUP_TABLE } from './rollups.js';
import { DEFAULT_MONITORING } from './runner.js';

export const RETENTION_TASK = 'monitor.retention';
export const DAY_ROLLUPS_KEPT_DAYS = 400;
const DAY_MS = 86_400_000;

export async function pruneHistory(
  db: AnyDb,
  now: number,
  retentionDays: number,
): Promise<{ runs: number; rollups: number }> {
  const cutoff = now - retentionDays * DAY_MS;
  const runs = await db.deleteFrom('monitor_runs').where('at', '<', cutoff).executeTakeFirst();
  const hours = await db
    .deleteFrom(ROLLUP_TABLE)
    .where('period', '=', 'hour')
    .where('start_at', '<', cutoff)
    .executeTakeFirst();
  const days = await db
    .deleteFrom(ROLLUP_TABLE)
    .where('period', '=', 'day')
    .where('start_at', '<', now - DAY_ROLLUPS_KEPT_DAYS * DAY_MS)
    .executeTakeFirst();
  // Lease rows of deleted jobs (the runner drops those it had registered; a job paused, then
  // deleted, or deleted while no process ran, leaves its row here).
  await sql`delete from scheduler_leases where name like 'monitor.check:%'
    and cast(substr(name, 15) as bigint) in (select id from monitor_jobs where deleted_at is not null)`.execute(
    db,
  );
  return {
    runs: Number(runs.numDeletedRows ?? 0),
    rollups: Number(hours.numDeletedRows ?? 0) + Number(days.numDeletedRows ?? 0),
  };
}

export function monitorTasks(app: FastifyInstance): ScheduledTask[] {
  const retentionDays = app.config.monitoring?.retentionDays ?? DEFAULT_MONITORING.retentionDays;
  return [
    {
      name: RETENTION_TASK,
      everyMs: 3_600_000,
      async run(ctx) {
        const pruned = await pruneHistory(ctx.db as unknown as AnyDb, ctx.now(), retentionDays);
        if (pruned.runs > 0) bumpVersion(ctx.db, 'monitorRuns'); // the admin list's cached totals
        if (pruned.runs + pruned.rollups > 0) ctx.log.info(pruned, 'monitor history pruned');
      },
    },
  ];
}
