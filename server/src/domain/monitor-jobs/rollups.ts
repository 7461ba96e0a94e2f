/**
 * The `monitor_rollups` table (migration 0014): one row per job, period ('hour' | 'day') and
 * period start, holding core's `Rollup`. A check adds its heartbeat to the current hour's and
 * day's rows in its transaction; uptime and latency figures are merges of rows (core's
 * arithmetic), read by primary key.
 *
 * The histogram is a JSON array, which SQL cannot add element-wise portably, so the write is a
 * read-merge-upsert inside the check's transaction, which holds the job's row lock
 * (record.ts): two checks of one job (the scheduled one and a "run now") are serialised there,
 * so no addition is lost.
 */
import {
  addHeartbeat,
  CHINA_OFFSET_MS,
  emptyRollup,
  type HeartbeatFacts,
  LATENCY_BUCKETS_MS,
  mergeRollups,
  type Rollup,
  rollupOf,
} from '@wanxiang/core';
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/extensions.js';

export const ROLLUP_TABLE = 'monitor_rollups';
export type RollupPeriod = 'hour' | 'day';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The first instant of the hour, or of the China day, holding `at`. */
export function periodStart(period: RollupPeriod, at: number): number {
  if (period === 'hour') return Math.floor(at / HOUR_MS) * HOUR_MS;
  return Math.floor((at + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS - CHINA_OFFSET_MS;
}

export const PERIOD_MS: Record<RollupPeriod, number> = { hour: HOUR_MS, day: DAY_MS };

interface RollupRow {
  job_id: number | string;
  period: string;
  start_at: number | string;
  up: number | string;
  down: number | string;
  latency_sum: number | string;
  latency_count: number | string;
  latency_min: number | string | null;
  latency_max: number | string | null;
  buckets: string;
}

const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function rollupOfRow(row: RollupRow): Rollup {
  const stored = JSON.parse(row.buckets) as number[];
  const buckets = LATENCY_BUCKETS_MS.map((_, i) => Number(stored[i] ?? 0));
  return {
    up: num(row.up),
    down: num(row.down),
    latencySum: num(row.latency_sum),
    latencyCount: num(row.latency_count),
    latencyMin: numOrNull(row.latency_min),
    latencyMax: numOrNull(row.latency_max),
    buckets,
  };
}

function rowOf(jobId: number, period: RollupPeriod, startAt: number, r: Rollup) {
  return {
    job_id: jobId,
    period,
    start_at: startAt,
    up: r.up,
    down: r.down,
    latency_sum: r.latencySum,
    latency_count: r.latencyCount,
    latency_min: r.latencyMin,
    latency_max: r.latencyMax,
    buckets: JSON.stringify(r.buckets),
  };
}

/** Writes a roll-up row as it stands (insert or replace); the bench and tests fill history with it. */
export async function putRollup(
  db: AnyDb,
  jobId: number,
  period: RollupPeriod,
  startAt: number,
  r: Rollup,
): Promise<void> {
  const values = rowOf(jobId, period, startAt, r);
  const { job_id, period: _p, start_at, ...rest } = values;
  await db
    .insertInto(ROLLUP_TABLE)
    .values(values)
    .onConflict((oc) => oc.columns(['job_id', 'period', 'start_at']).doUpdateSet(rest))
    .execute();
}

/** Adds a heartbeat to the job's hour and day roll-ups (call in the check's transaction, job row locked). */
export async function addToRollups(
  trx: AnyDb,
  jobId: number,
  at: number,
  beat: HeartbeatFacts,
): Promise<void> {
  for (const period of ['hour', 'day'] as const) {
    const startAt = periodStart(period, at);
    const row = (await trx
      .selectFrom(ROLLUP_TABLE)
      .selectAll()
      .where('job_id', '=', jobId)
      .where('period', '=', period)
      .where('start_at', '=', startAt)
      .executeTakeFirst()) as RollupRow | undefined;
    const merged = mergeRollups([row ? rollupOfRow(row) : emptyRollup(), rollupOf(beat)]);
    await putRollup(trx, jobId, period, startAt, merged);
  }
}

/** The job's roll-up rows of a period with start in [from, to), oldest first. */
export async function rollupRows(
  db: AnyDb,
  jobId: number,
  period: RollupPeriod,
  from: number,
  to: number,
): Promise<{ startAt: number; rollup: Rollup }[]> {
  const rows = (await db
    .selectFrom(ROLLUP_TABLE)
    .selectAll()
    .where('job_id', '=', jobId)
    .where('period', '=', period)
    .where('start_at', '>=', from)
    .where('start_at', '<', to)
    .orderBy('start_at')
    .execute()) as RollupRow[];
  return rows.map((row) => ({ startAt: num(row.start_at), rollup: rollupOfRow(row) }));
}

/**
 * The roll-up of the last `windowMs` before `now`: whole days from the daily rows, and the
 * hours of the part-day at the window's start from the hourly rows (so "24 h" is 24 hours, not
 * "since midnight"). The window's edges are rounded to whole hours.
 */
export async function windowRollup(db: AnyDb, jobId: number, now: number, windowMs: number): Promise<Rollup> {
  const from = periodStart('hour', now - windowMs) + HOUR_MS;
  const firstWholeDay = periodStart('day', from) === from ? from : periodStart('day', from) + DAY_MS;
  if (windowMs <= DAY_MS || firstWholeDay > now) {
    const hours = await rollupRows(db, jobId, 'hour', from, now + 1);
    return mergeRollups(hours.map((h) => h.rollup));
  }
  const [hours, days] = await Promise.all([
    rollupRows(db, jobId, 'hour', from, firstWholeDay),
    rollupRows(db, jobId, 'day', firstWholeDay, now + 1),
  ]);
  return mergeRollups([...hours, ...days].map((x) => x.rollup));
}

/**
 * Roll-ups for jobs that have heartbeats but no roll-up at all: heartbeats written before
 * migration 0014, or by the demo seeder (it writes a day of history as plain rows). Run at the
 * runner's start, before its first check (a check's roll-up would make the job look done).
 * Per job in a transaction holding the job's row, re-checked there, so two processes starting
 * together write each job's roll-ups once. Answers how many jobs it filled.
 */
export async function backfillRollups(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<number> {
  const { rows } = await sql<{ job_id: number | string }>`
    select distinct r.job_id from monitor_runs r
    where not exists (select 1 from monitor_rollups u where u.job_id = r.job_id)`.execute(db);
  let filled = 0;
  for (const { job_id } of rows) {
    const jobId = Number(job_id);
    const done = await db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('monitor_jobs').select('id').where('id', '=', jobId);
      if (dialect === 'postgres') lock = lock.forUpdate();
      await lock.execute();
      const any = await trx
        .selectFrom(ROLLUP_TABLE)
        .select('job_id')
        .where('job_id', '=', jobId)
        .limit(1)
        .execute();
      if (any.length > 0) return false;
      const beats = (await trx
        .selectFrom('monitor_runs')
        .select(['status', 'latency_ms', 'at'])
        .where('job_id', '=', jobId)
        .orderBy('at')
        .execute()) as { status: string; latency_ms: unknown; at: number | string }[];
      const periods = new Map<string, Rollup>();
      for (const beat of beats) {
        const at = Number(beat.at);
        const facts: HeartbeatFacts = {
          status: beat.status as HeartbeatFacts['status'],
          latencyMs:
            beat.latency_ms === null || beat.latency_ms === undefined ? null : Number(beat.latency_ms),
        };
        for (const period of ['hour', 'day'] as const) {
          const key = `${period}:${periodStart(period, at)}`;
          periods.set(key, addHeartbeat(periods.get(key) ?? emptyRollup(), facts));
        }
      }
      for (const [key, rollup] of periods) {
        const [period, startAt] = key.split(':') as [RollupPeriod, string];
        await putRollup(trx, jobId, period, Number(startAt), rollup);
      }
      return true;
    });
    if (done) filled += 1;
  }
  return filled;
}
