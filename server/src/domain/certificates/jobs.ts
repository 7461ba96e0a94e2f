/**
 * Certificate job rows (sslJobs): read them, say whose outbound policy they are checked under,
 * and record a check's outcome — the certificate's figures on the row, each expiry threshold
 * notified once per certificate fingerprint (ssl_notices), and the alert that raises (a
 * monitor_alerts row). All writes of one check in one transaction (the caller's).
 */
import { type CertificateCheckResult, getResource, sslJobStatusOf, thresholdsDue } from '@wanxiang/core';
import { sql } from 'kysely';
import type { OutboundPolicy } from '../../net/outbound.js';
import type { AnyDb } from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import { modelOf, toDbValues, toWireRow, type WireRow } from '../../resources/storage.js';
import { policyOfUser } from '../printing/address-policy.js';
import { keyLabel } from './chain.js';

export const sslJobModel = () => modelOf(getResource('sslJobs'));
export const alertModel = () => modelOf(getResource('monitorAlerts'));

/** The threshold an `expired` notice is recorded under (0 days: expiry itself). */
export const EXPIRED_THRESHOLD = 0;

export async function sslJobOf(db: AnyDb, id: number): Promise<WireRow | null> {
  const model = sslJobModel();
  const row = await db.selectFrom(model.table).selectAll().where(sql.ref('id'), '=', id).executeTakeFirst();
  return row ? toWireRow(model, row) : null;
}

/**
 * Whose policy a job's target is reached under: its owner's permissions as they stand now (a
 * user without monitor:write reaches public addresses only). A platform job (no owner) was set
 * up by someone with the monitoring permission: it may reach private addresses.
 */
export async function policyOfJob(db: AnyDb, ownerId: number | null): Promise<OutboundPolicy> {
  if (ownerId === null) return { mayReachPrivate: true };
  return policyOfUser(db, ownerId);
}

export const notifyDaysOf = (row: WireRow): number[] =>
  Array.isArray(row.notifyDays) ? (row.notifyDays as number[]) : [];

export interface AlertRow {
  id: number;
  level: 'expiring' | 'expired' | 'error';
  sslJobId: number;
  ownerId: number | null;
  message: string;
  at: string;
}

export interface RecordedCheck {
  job: WireRow;
  alert: AlertRow | null;
}

async function notifiedThresholds(db: AnyDb, jobId: number, fingerprint: string): Promise<number[]> {
  const rows = (await db
    .selectFrom('ssl_notices')
    .select(sql.ref('threshold').as('threshold'))
    .where(sql.ref('ssl_job_id'), '=', jobId)
    .where(sql.ref('fingerprint256'), '=', fingerprint)
    .execute()) as { threshold: unknown }[];
  return rows.map((r) => Number(r.threshold));
}

/**
 * Records thresholds as notified; answers the ones this call recorded (none when another
 * process recorded them first: the unique key makes the notice once).
 */
async function recordNotices(
  db: AnyDb,
  jobId: number,
  fingerprint: string,
  thresholds: readonly number[],
  now: number,
): Promise<number[]> {
  const recorded: number[] = [];
  for (const threshold of thresholds) {
    const inserted = await db
      .insertInto('ssl_notices')
      .values({ ssl_job_id: jobId, fingerprint256: fingerprint, threshold, at: now })
      .onConflict((oc) => oc.columns(['ssl_job_id', 'fingerprint256', 'threshold']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) recorded.push(threshold);
  }
  return recorded;
}

async function insertAlert(db: AnyDb, alert: Omit<AlertRow, 'id' | 'at'>, now: number): Promise<AlertRow> {
  const model = alertModel();
  const row = await db
    .insertInto(model.table)
    .values({
      ...toDbValues(model, { ...alert, jobId: null, at: now }),
      created_at: now,
      updated_at: now,
    })
    .returning(sql.ref('id').as('id'))
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), ...alert, at: new Date(now).toISOString() };
}

const where = (job: WireRow) => (Number(job.port) === 443 ? String(job.host) : `${job.host}:${job.port}`);

/** The alert a check raises, if any (see recordCheck). */
async function alertOf(
  trx: AnyDb,
  job: WireRow,
  result: CertificateCheckResult,
  now: number,
): Promise<Omit<AlertRow, 'id' | 'at'> | null> {
  const base = { sslJobId: job.id, ownerId: (job.ownerId as number | null) ?? null };
  const leaf = result.chain[0];
  const status = sslJobStatusOf(result.verdict);
  if (status === 'error') {
    // A failure alerts when it begins, not on every check that finds it still failing.
    if (job.status === 'error') return null;
    return { ...base, level: 'error', message: `证书检测失败（${where(job)}）：${result.reason}` };
  }
  if (!leaf) return null;
  const fingerprint = leaf.fingerprint256;
  const notified = await notifiedThresholds(trx, job.id, fingerprint);
  if (result.verdict === 'expired') {
    if (notified.includes(EXPIRED_THRESHOLD)) return null;
    // Expiry covers every earlier threshold: none of them is announced afterwards.
    const recorded = await recordNotices(
      trx,
      job.id,
      fingerprint,
      [EXPIRED_THRESHOLD, ...notifyDaysOf(job)],
      now,
    );
    if (!recorded.includes(EXPIRED_THRESHOLD)) return null;
    return { ...base, level: 'expired', message: `证书已过期（${where(job)}）：${result.reason}` };
  }
  const due = thresholdsDue(result.daysLeft, notifyDaysOf(job), notified);
  if (due.length === 0) return null;
  const recorded = await recordNotices(trx, job.id, fingerprint, due, now);
  const [smallest] = recorded;
  if (smallest === undefined) return null;
  return {
    ...base,
    level: 'expiring',
    message: `证书将在 ${result.daysLeft} 天后到期（${where(job)}，提前 ${smallest} 天提醒）`,
  };
}

/**
 * Writes a check's outcome on the job and raises its alert, in `trx`:
 * - a certificate obtained: its figures (leaf's issuer, subject, SANs, fingerprint, validity,
 *   days left, key, the chain); none obtained (unreachable): the figures of the last certificate
 *   seen stay, with days left counted again from its notAfter, and the row says why it failed;
 * - thresholds: each one crossed and not yet notified for this fingerprint is recorded, and one
 *   `expiring` alert names the smallest; an expired certificate one `expired` alert; a failure
 *   (mismatch, untrusted, unreachable) one `error` alert when the job was not failing already.
 */
export async function recordCheck(
  trx: AnyDb,
  job: WireRow,
  result: CertificateCheckResult,
  now: number,
): Promise<RecordedCheck> {
  const leaf = result.chain[0];
  const status = sslJobStatusOf(result.verdict);
  const certificate = leaf
    ? {
        issuer: leaf.issuer.slice(0, 500),
        subject: leaf.subject.slice(0, 500),
        sans: leaf.sans.slice(0, 100),
        fingerprint256: leaf.fingerprint256,
        notBefore: leaf.notBefore,
        notAfter: leaf.notAfter,
        daysLeft: result.daysLeft,
        keyType: keyLabel(leaf),
        chain: result.chain,
      }
    : {
        daysLeft:
          job.notAfter === null || job.notAfter === undefined
            ? null
            : Math.floor((Date.parse(String(job.notAfter)) - now) / 86_400_000),
      };
  const alert = await alertOf(trx, job, result, now);
  const written = await changeRow(trx, sslJobModel(), job.id, now, {
    values: {
      ...certificate,
      verdict: result.verdict,
      status,
      lastError: status === 'error' ? result.reason.slice(0, 500) : null,
      lastCheckAt: now,
    },
  });
  const saved = written ? toWireRow(sslJobModel(), written) : job;
  return { job: saved, alert: alert ? await insertAlert(trx, alert, now) : null };
}

/** Jobs due for a check at `now` (never checked, or their interval passed), oldest check first. */
export async function dueJobIds(db: AnyDb, now: number, limit: number): Promise<number[]> {
  const model = sslJobModel();
  const rows = (await db
    .selectFrom(model.table)
    .select(sql.ref('id').as('id'))
    .where((eb) =>
      eb.or([
        eb(sql.ref('last_check_at'), 'is', null),
        eb(sql`last_check_at + coalesce(interval_s, 21600) * 1000`, '<=', now),
      ]),
    )
    .orderBy(sql`coalesce(last_check_at, 0)`)
    .orderBy(sql.ref('id'))
    .limit(limit)
    .execute()) as { id: unknown }[];
  return rows.map((r) => Number(r.id));
}

/**
 * Before a job is deleted: its notices go, and its alerts stay in the alert list without the
 * link (the message names the host).
 */
export async function detachJob(trx: AnyDb, id: number): Promise<void> {
  await trx.deleteFrom('ssl_notices').where(sql.ref('ssl_job_id'), '=', id).execute();
  await trx
    .updateTable(alertModel().table)
    .set({ ssl_job_id: null })
    .where(sql.ref('ssl_job_id'), '=', id)
    .execute();
}
