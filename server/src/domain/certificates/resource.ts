/**
 * What the registry cannot say about certificate jobs: the `checkNow` action (the handshake
 * before the transaction, its outcome recorded in the action's audited write, the alert pushed
 * after the commit), and the jobs' hooks — a new job has no figures until it is checked, a CA
 * bundle must be certificates, and deleting a job takes its notices along.
 */
import { X509Certificate } from 'node:crypto';
import { type CertificateCheckResult, type CertificateVerdict, VERDICT_LABEL } from '@wanxiang/core';
import { invalidInput } from '../../http/envelope.js';
import type {
  ActionHandlerSpec,
  AnyDb,
  EngineExtensions,
  ResourceHooks,
} from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import type { WireRow } from '../../resources/storage.js';
import { deploy, deploymentHooks } from './deployments.js';
import { detachJob, recordCheck, sslJobModel, sslJobOf } from './jobs.js';
import { announce, checkJobTarget } from './service.js';
import { settingsOf } from './settings.js';

/** The certificates of a PEM bundle; an error message in Chinese when it holds none or a broken one. */
export function parseCaBundle(pem: string): { certificates: X509Certificate[] } | { error: string } {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return { error: '须为 PEM 格式的证书（-----BEGIN CERTIFICATE----- 开头）' };
  try {
    return { certificates: blocks.map((block) => new X509Certificate(block)) };
  } catch {
    return { error: '证书内容无法解析，请粘贴完整的 PEM 证书' };
  }
}

/** What a job's certificate is checked at: changing any of these makes its figures stale. */
const TARGET_FIELDS = ['host', 'port', 'starttls', 'servername', 'caBundle'] as const;

/** A job as if never checked. */
const NO_FIGURES = {
  issuer: null,
  subject: null,
  sans: null,
  fingerprint256: null,
  notBefore: null,
  notAfter: null,
  daysLeft: null,
  keyType: null,
  chain: null,
  verdict: null,
  status: 'pending',
  lastError: null,
  lastCheckAt: null,
};

export const sslJobHooks: ResourceHooks = {
  async prepare(values) {
    if (typeof values.caBundle === 'string' && values.caBundle.trim() !== '') {
      const parsed = parseCaBundle(values.caBundle);
      if ('error' in parsed) throw invalidInput({ caBundle: parsed.error });
    }
  },
  async afterWrite(ctx, id, values, before) {
    if (before === null) {
      // The engine gives read-only integers 0 on create; a job never checked has no days left.
      // (A seeder's row that carries a certificate keeps its figures.)
      if (values.notAfter) return;
      await ctx.trx.updateTable(sslJobModel().table).set({ days_left: null }).where('id', '=', id).execute();
      return;
    }
    // Another target: the figures were another certificate's. The job is pending again, and the
    // next sweep (within a minute) checks it.
    const retargeted = TARGET_FIELDS.some(
      (name) => values[name] !== undefined && (values[name] ?? null) !== (before[name] ?? null),
    );
    if (!retargeted) return;
    await changeRow(ctx.trx, sslJobModel(), id, ctx.now, { values: NO_FIGURES });
  },
  async beforeDelete(ctx, id) {
    await detachJob(ctx.trx, id);
  },
};

const checkNow: ActionHandlerSpec = {
  // The handshake runs before the transaction opens: a slow server never holds it.
  async prepare(ctx): Promise<CertificateCheckResult | null> {
    const job = await sslJobOf(ctx.db, ctx.id);
    if (!job) return null; // the engine answers 404 in its transaction
    const settings = settingsOf(ctx.db);
    return checkJobTarget({ db: ctx.db, now: () => ctx.now, timeoutMs: settings.timeoutMs }, job);
  },
  async run(ctx) {
    const result = ctx.prepared as CertificateCheckResult | null;
    if (!result) return undefined;
    const recorded = await recordCheck(ctx.trx, ctx.row, result, ctx.now);
    if (recorded.alert) ctx.touched('monitorAlerts');
    ctx.afterCommit(() =>
      announce({ db: ctx.db as AnyDb, now: () => ctx.now, timeoutMs: 0, publish: ctx.publish }, recorded),
    );
    return recorded.job;
  },
  message: (answer: WireRow) => {
    const verdict = answer.verdict as CertificateVerdict | null;
    return verdict ? `检测完成：${VERDICT_LABEL[verdict]}` : undefined;
  },
};

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('sslJobs', sslJobHooks);
  engine.registerActionHandler('sslJobs', 'checkNow', checkNow);
  engine.registerResourceHooks('sslDeployments', deploymentHooks);
  engine.registerActionHandler('sslDeployments', 'deploy', deploy);
}
