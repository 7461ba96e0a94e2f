/**
 * `apiGateway.retention` (a leased task of the areas' scheduler, once per cluster every hour,
 * shaped as monitor-jobs' `monitor.retention`): raw `api_calls` older than
 * `API_CALL_RETENTION_DAYS` (90) go, daily roll-ups are kept CALL_DAYS_KEPT_DAYS, past rate
 * windows go after a few minutes and free-usage months after a year and a bit. Hourly runs keep
 * each delete about an hour's worth of rows.
 */
import type { FastifyInstance } from 'fastify';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import type { ScheduledTask } from '../../scheduler/task.js';

export const GATEWAY_RETENTION_TASK = 'apiGateway.retention';
export const DEFAULT_CALL_RETENTION_DAYS = 90;
export const CALL_DAYS_KEPT_DAYS = 400;
const DAY_MS = 86_400_000;

export async function pruneGatewayHistory(
  db: AnyDb,
  now: number,
  retentionDays: number,
): Promise<{ calls: number; days: number; windows: number }> {
  const calls = await db
    .deleteFrom('api_calls')
    .where('at', '<', now - retentionDays * DAY_MS)
    .executeTakeFirst();
  const days = await db
    .deleteFrom('api_call_days')
    .where('day_start', '<', now - CALL_DAYS_KEPT_DAYS * DAY_MS)
    .executeTakeFirst();
  // A window is only read while it is the current minute.
  const windows = await db
    .deleteFrom('api_rate_windows')
    .where('window_start', '<', now - 5 * 60_000)
    .executeTakeFirst();
  const lastYear = new Date(now - 400 * DAY_MS).toISOString().slice(0, 7);
  await db.deleteFrom('api_free_usage').where('month', '<', lastYear).execute();
  return {
    calls: Number(calls.numDeletedRows ?? 0),
    days: Number(days.numDeletedRows ?? 0),
    windows: Number(windows.numDeletedRows ?? 0),
  };
}

export function gatewayTasks(app: FastifyInstance): ScheduledTask[] {
  const retentionDays = app.config.apiCallRetentionDays ?? DEFAULT_CALL_RETENTION_DAYS;
  return [
    {
      name: GATEWAY_RETENTION_TASK,
      everyMs: 3_600_000,
      async run(ctx) {
        const pruned = await pruneGatewayHistory(ctx.db as unknown as AnyDb, ctx.now(), retentionDays);
        if (pruned.calls > 0) bumpVersion(ctx.db, 'apiCalls');
        if (pruned.calls + pruned.days > 0) ctx.log.info(pruned, 'api gateway history pruned');
      },
    },
  ];
}
