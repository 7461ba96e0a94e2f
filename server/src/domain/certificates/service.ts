/**
 * Checking a certificate job end to end: the handshake outside any transaction (check.ts), then
 * one transaction that records it (jobs.ts), then — once committed — the push on `/ws`.
 * The route, the admin action and the scheduled sweep all go through `checkJob`.
 */
import type { CertificateCheckResult, StarttlsProtocol } from '@wanxiang/core';
import { OutboundRefusedError } from '../../net/outbound.js';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import { checkCertificate } from './check.js';
import { type AlertRow, notifyDaysOf, policyOfJob, type RecordedCheck, recordCheck } from './jobs.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

/** What a check needs of the server: its clock, timeout and `/ws` hub. */
export interface CheckEnv {
  db: AnyDb;
  now: () => number;
  timeoutMs: number;
  publish?: (topic: string, data: unknown) => void;
}

/** The handshake for a job row; a policy refusal is the result `unreachable` with the refusal. */
export async function checkJobTarget(env: CheckEnv, job: WireRow): Promise<CertificateCheckResult> {
  const now = env.now();
  const input = {
    host: String(job.host),
    port: Number(job.port),
    starttls: (job.starttls as StarttlsProtocol | 'none' | null) ?? 'none',
    servername: (job.servername as string | null) ?? null,
    caPem: (job.caBundle as string | null) ?? null,
    timeoutMs: env.timeoutMs,
    now,
    notifyDays: notifyDaysOf(job),
  };
  try {
    return await checkCertificate({
      ...input,
      policy: await policyOfJob(env.db, (job.ownerId as number) ?? null),
    });
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    // The owner lost the monitoring permission since creating it: the job says why it stopped.
    return {
      verdict: 'unreachable',
      reason: error.message,
      daysLeft: null,
      host: input.host,
      port: input.port,
      checkedAt: new Date(now).toISOString(),
      chain: [],
    };
  }
}

/** Pushes a certificate job's alert to the monitoring topics: everyone's, and its owner's. */
export function publishAlert(env: CheckEnv, job: WireRow, alert: AlertRow): void {
  const data = {
    type: 'certificate',
    sslJob: {
      id: job.id,
      host: job.host,
      port: job.port,
      status: job.status,
      verdict: job.verdict,
      daysLeft: job.daysLeft,
      lastCheckAt: job.lastCheckAt,
    },
    alert,
  };
  env.publish?.('monitor', data);
  if (alert.ownerId !== null) env.publish?.(`monitor:user:${alert.ownerId}`, data);
}

/** After the commit of a recorded check: totals dropped, alert logged and pushed. */
export function announce(
  env: CheckEnv,
  recorded: RecordedCheck,
  log?: { warn(o: object, m: string): void },
): void {
  bumpVersion(env.db, 'sslJobs');
  if (!recorded.alert) return;
  bumpVersion(env.db, 'monitorAlerts');
  log?.warn({ sslJobId: recorded.job.id, alert: recorded.alert.message }, 'certificate alert');
  publishAlert(env, recorded.job, recorded.alert);
}

/** Checks a job now and records it: the row after, the check's result, the alert it raised. */
export async function checkJob(
  env: CheckEnv,
  job: WireRow,
  log?: { warn(o: object, m: string): void },
): Promise<RecordedCheck & { result: CertificateCheckResult }> {
  const result = await checkJobTarget(env, job);
  const now = env.now();
  const recorded = await env.db.transaction().execute((trx) => recordCheck(trx, job, result, now));
  announce(env, recorded, log);
  return { ...recorded, result };
}
