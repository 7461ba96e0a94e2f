/**
 * What the job screens read: uptime over 24 h / 7 d / 30 d and latency statistics from the
 * roll-ups (never a scan of heartbeats), a page of runs, and the last checks of many jobs at
 * once for the list's uptime bars. Shared by /api/me/jobs (own jobs) and the admin routes.
 */
import { averageLatency, getResource, latencyPercentile, type Rollup, uptimePercent } from '@wanxiang/core';
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/extensions.js';
import { modelOf, toWireRow, type WireRow } from '../../resources/storage.js';
import { PERIOD_MS, periodStart, type RollupPeriod, rollupRows, windowRollup } from './rollups.js';

const DAY_MS = 86_400_000;

export const STATS_RANGES = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;
export type StatsRange = keyof typeof STATS_RANGES;

const round2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);
const round0 = (n: number | null) => (n === null ? null : Math.round(n));

/** `{h24, d7, d30}`: percent with 2 decimals, null when there were no checks. */
export async function uptimeOf(db: AnyDb, jobId: number, now: number) {
  const [h24, d7, d30] = await Promise.all(
    Object.values(STATS_RANGES).map((ms) => windowRollup(db, jobId, now, ms)),
  );
  return {
    h24: round2(uptimePercent(h24 as Rollup)),
    d7: round2(uptimePercent(d7 as Rollup)),
    d30: round2(uptimePercent(d30 as Rollup)),
  };
}

/** Uptime and latency of a range, with a point per hour (24h, 7d) or per China day (30d). */
export async function statsOf(db: AnyDb, jobId: number, now: number, range: StatsRange) {
  const windowMs = STATS_RANGES[range];
  const period: RollupPeriod = range === '30d' ? 'day' : 'hour';
  const from = periodStart(period, now - windowMs) + PERIOD_MS[period];
  const [total, rows] = await Promise.all([
    windowRollup(db, jobId, now, windowMs),
    rollupRows(
      db,
      jobId,
      period,
      period === 'day' ? periodStart('day', now - windowMs) + DAY_MS : from,
      now + 1,
    ),
  ]);
  return {
    range,
    uptime: round2(uptimePercent(total)),
    avgMs: round0(averageLatency(total)),
    p50Ms: round0(latencyPercentile(total, 50)),
    p95Ms: round0(latencyPercentile(total, 95)),
    p99Ms: round0(latencyPercentile(total, 99)),
    points: rows.map(({ startAt, rollup }) => ({
      at: new Date(startAt).toISOString(),
      up: rollup.up,
      down: rollup.down,
      avgMs: round0(averageLatency(rollup)),
      p95Ms: round0(latencyPercentile(rollup, 95)),
    })),
  };
}

const runs = () => modelOf(getResource('monitorRuns'));

/** A page of a job's runs, newest first, before `before` (epoch ms) when given. */
export async function runsOf(
  db: AnyDb,
  jobId: number,
  limit: number,
  before: number | null,
): Promise<WireRow[]> {
  const model = runs();
  let q = db
    .selectFrom(model.table)
    .selectAll()
    .where('job_id', '=', jobId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (before !== null) q = q.where('at', '<', before);
  return (await q.execute()).map((row) => toWireRow(model, row));
}

export interface RecentCheck {
  status: string;
  at: string;
  latencyMs: number | null;
}

/** The last `n` checks of each job (oldest first), in one query (a window function, both databases). */
export async function recentOf(
  db: AnyDb,
  jobIds: readonly number[],
  n = 50,
): Promise<Map<number, RecentCheck[]>> {
  const out = new Map<number, RecentCheck[]>(jobIds.map((id) => [id, []]));
  if (jobIds.length === 0) return out;
  const { rows } = await sql<{
    job_id: number | string;
    status: string;
    at: number | string;
    latency_ms: unknown;
  }>`
    select job_id, status, at, latency_ms from (
      select job_id, status, at, latency_ms,
        row_number() over (partition by job_id order by at desc, id desc) as rn
      from monitor_runs where job_id in (${sql.join(jobIds)})
    ) recent where rn <= ${n} order by job_id, at, rn desc`.execute(db);
  for (const row of rows)
    out.get(Number(row.job_id))?.push({
      status: row.status,
      at: new Date(Number(row.at)).toISOString(),
      latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    });
  return out;
}
