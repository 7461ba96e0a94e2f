/**
 * Recording one check: in one transaction, the heartbeat (monitor_runs), the job's status,
 * retry count, last check and latency (and screenshot), the hour's and day's roll-ups, and on a
 * status flip an alert row (monitor_alerts); after the commit, the `/ws` pushes and a log line.
 *
 * The job's row is read first, locked on PostgreSQL (`FOR UPDATE`; SQLite has one writer), so
 * two checks of one job (the scheduled one and a "run now" in another process) apply one after
 * the other, each to the status the other left. A job paused or deleted while its check was in
 * flight records nothing: its state is no longer the checker's to change.
 */
import { getResource, nextJobStatus } from '@wanxiang/core';
import type { DialectName } from '../../db/connect.js';
import { appendRow, nextUpdatedAt } from '../../resources/actions.js';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { modelOf, toDbValues, toWireRow, type WireRow } from '../../resources/storage.js';
import type { CheckResult } from './checks.js';
import { addToRollups } from './rollups.js';

export const MONITOR_TOPIC = 'monitor';
export const userTopic = (ownerId: number) => `monitor:user:${ownerId}`;

export interface RecordEnv {
  db: AnyDb;
  dialect: DialectName;
  publish(topic: string, data: unknown): void;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface Recorded {
  job: WireRow;
  run: WireRow;
  alert: WireRow | null;
}

const jobs = () => modelOf(getResource('monitorJobs'));

/** Reads a job (not deleted), locking its row on PostgreSQL when in a transaction. */
export async function jobRow(
  db: AnyDb,
  dialect: DialectName,
  id: number,
  lock = false,
): Promise<WireRow | null> {
  const model = jobs();
  let q = db.selectFrom(model.table).selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  if (lock && dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toWireRow(model, row) : null;
}

function alertMessage(job: WireRow, level: 'down' | 'up', result: CheckResult): string {
  return level === 'down'
    ? `「${job.name}」故障：${result.message}`
    : `「${job.name}」恢复正常${result.latencyMs !== null ? `（${result.latencyMs} 毫秒）` : ''}`;
}

/** Records a check done at `at`; null when the job was paused or deleted meanwhile. */
export async function recordCheck(
  env: RecordEnv,
  jobId: number,
  at: number,
  result: CheckResult,
): Promise<Recorded | null> {
  const recorded = await env.db.transaction().execute(async (trx) => {
    const job = await jobRow(trx, env.dialect, jobId, true);
    if (!job || job.status === 'paused') return null;
    const next = nextJobStatus({
      previous: job.status as 'up' | 'down' | 'pending',
      retryCount: Number(job.retryCount ?? 0),
      maxRetries: Number(job.maxRetries ?? 0),
      ok: result.ok,
    });
    const run = await appendRow(
      trx,
      getResource('monitorRuns'),
      {
        jobId,
        status: next.status,
        httpStatus: result.httpStatus,
        latencyMs: result.latencyMs,
        message: result.message.slice(0, 500),
        important: next.important,
        at,
      },
      at,
    );
    const model = jobs();
    const changes: Record<string, unknown> = {
      status: next.status,
      retryCount: next.retryCount,
      lastCheckAt: at,
      lastLatencyMs: result.latencyMs,
    };
    if (result.screenshot) changes.screenshot = result.screenshot;
    const updated = await trx
      .updateTable(model.table)
      .set({ ...toDbValues(model, changes), updated_at: nextUpdatedAt(at) })
      .where('id', '=', jobId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await addToRollups(trx, jobId, at, { status: next.status, latencyMs: result.latencyMs });
    const alert = next.alert
      ? await appendRow(
          trx,
          getResource('monitorAlerts'),
          {
            jobId,
            ownerId: job.ownerId ?? null,
            level: next.alert,
            message: alertMessage(job, next.alert, result).slice(0, 500),
            at,
          },
          at,
        )
      : null;
    return { job: toWireRow(model, updated), run, alert };
  });
  if (recorded) {
    // The admin lists' cached totals (resources/counts.ts): these rows were written outside the engine.
    for (const resource of ['monitorJobs', 'monitorRuns', ...(recorded.alert ? ['monitorAlerts'] : [])])
      bumpVersion(env.db, resource);
    announce(env, recorded);
  }
  return recorded;
}

/** After the commit: `/ws` pushes to the admin screens and the job's owner, and a log line on alert. */
function announce(env: RecordEnv, { job, run, alert }: Recorded): void {
  const payload = {
    type: 'job',
    job: { id: job.id, status: job.status, lastCheckAt: job.lastCheckAt, lastLatencyMs: job.lastLatencyMs },
    run,
    ...(alert ? { alert } : {}),
  };
  env.publish(MONITOR_TOPIC, payload);
  if (job.ownerId != null) env.publish(userTopic(Number(job.ownerId)), payload);
  if (alert) env.log.warn({ jobId: job.id, level: alert.level, alert: alert.message }, 'monitor alert');
}
