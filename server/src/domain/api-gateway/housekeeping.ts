/**
 * `apiGateway.retention` (a leased task of the areas' scheduler, once per cluster every hour,
 * shaped as monitor-jobs' `monitor.retention`): raw `api_calls` older than
 * `API_CALL_RETENTION_DAYS` (90) go, daily roll-ups are kept CALL_DAYS_KEPT_DAYS, past rate
 * windows go after a few minutes and free-usage months after a year and a bit. Hourly runs keep
 * each delete about an hour's worth of rows. Its first run (soon after the start) also fills the
 * roll-ups of calls metered without them (`backfillCallDays`: the demo's week of calls).
 */
import { CHINA_OFFSET_MS } from '@wanxiang/core';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
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
        const filled = await backfillCallDays(ctx.db as unknown as AnyDb);
        if (filled > 0) ctx.log.info({ calls: filled }, 'api call roll-ups backfilled');
        const pruned = await pruneGatewayHistory(ctx.db as unknown as AnyDb, ctx.now(), retentionDays);
        if (pruned.calls > 0) bumpVersion(ctx.db, 'apiCalls');
        if (pruned.calls + pruned.days > 0) ctx.log.info(pruned, 'api gateway history pruned');
      },
    },
  ];
}

/**
 * Daily roll-ups for calls metered without them — rows from before migration 0016, or written by
 * the demo seeder as plain rows — when the roll-up table is still empty (once the gateway has
 * metered a call, every call has its roll-up). One INSERT … SELECT; China days in integer
 * arithmetic, the same on both databases.
 */
export async function backfillCallDays(db: AnyDb): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom('api_call_days').select('key_id').limit(1).execute();
    if (any.length > 0) return 0;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from api_calls`.execute(trx);
    if (Number(rows[0]?.n ?? 0) === 0) return 0;
    await sql`
      insert into api_call_days
        (key_id, api_id, day_start, calls, ok, errors, rate_limited, no_quota, latency_sum, latency_max)
      select key_id, api_id, day_start,
        count(*),
        sum(case when status = 'ok' then 1 else 0 end),
        sum(case when status = 'error' then 1 else 0 end),
        sum(case when status = 'rateLimited' then 1 else 0 end),
        sum(case when status = 'noQuota' then 1 else 0 end),
        sum(latency), max(latency)
      from (
        select key_id, api_id, status, coalesce(latency_ms, 0) as latency,
          ((at + ${CHINA_OFFSET_MS}) / ${DAY_MS}) * ${DAY_MS} - ${CHINA_OFFSET_MS} as day_start
        from api_calls
        where key_id is not null and api_id is not null and at is not null
      ) c
      group by key_id, api_id, day_start`.execute(trx);
    return Number(rows[0]?.n ?? 0);
  });
}
