/**
 * The monitor runner of one server process: its own `Scheduler` (MONITOR_MAX_CONCURRENT,
 * apart from the areas' timers) with one task `monitor.check:<jobId>` per active job, the
 * shared headless browser, and `checkJob` — load the job, check under its owner's policy,
 * record (record.ts). See README.md for the decisions.
 *
 * - Period: a job's task runs every `min(intervalS, retryIntervalS)`; the body checks when the
 *   job is pending (retrying) or its last check is at least an interval old (less half a
 *   period of slack), so the retry interval applies while pending without re-registering the
 *   task at every status flip (a re-registration would lose the lease's phase).
 * - Jobs come and go: `sync()` (every SYNC_EVERY_MS in each process, and at once after a write
 *   through this process's routes) registers new and changed jobs and unregisters paused and
 *   deleted ones; a deleted job's lease row is dropped. It is a per-process reload, not a
 *   leased task: every process must see every job.
 * - Jitter: at the first sync every job's first attempt is spread over its period (1 000 jobs
 *   after a restart do not all run in the first second); a job appearing later waits up to 1 s.
 */
import { permissionsOf } from '@wanxiang/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { MonitoringConfig } from '../../config.js';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { BlobStore } from '../../files/blob-store.js';
import type { OutboundResolver } from '../../net/http-outbound.js';
import type { OutboundPolicy } from '../../net/outbound.js';
import { outboundPolicyOf } from '../../net/outbound.js';
import type { AnyDb } from '../../resources/extensions.js';
import { deleteLease, Scheduler, type Timers } from '../../scheduler/index.js';
import { policyOfUser } from '../printing/address-policy.js';
import { BrowserChecker, chromiumPath } from './browser.js';
import { type CheckResult, type JobSpec, runCheck } from './checks.js';
import { jobRow, type Recorded, recordCheck } from './record.js';
import { backfillRollups } from './rollups.js';

export const DEFAULT_MONITORING: MonitoringConfig = {
  maxConcurrent: 50,
  retentionDays: 30,
  maxJobsPerUser: 20,
  maxBrowserPages: 2,
};

export const SYNC_EVERY_MS = 5_000;
const LATE_JITTER_MS = 1_000;

export const checkTaskName = (jobId: number) => `monitor.check:${jobId}`;

/** A platform job (no owner) is the administrators': it may watch internal services. */
const PLATFORM: OutboundPolicy = outboundPolicyOf(permissionsOf(['admin']));

export async function policyOfJobOwner(db: AnyDb, ownerId: number | null): Promise<OutboundPolicy> {
  return ownerId === null ? PLATFORM : policyOfUser(db, ownerId);
}

export interface RunnerDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  now: () => number;
  log: FastifyBaseLogger;
  publish(topic: string, data: unknown): void;
  /** Where screenshots of browser checks are stored. */
  blobs: BlobStore;
  settings?: Partial<MonitoringConfig>;
  /** Tests stand in for DNS; the policy stays. */
  resolve?: OutboundResolver;
  timers?: Timers;
  holder?: string;
  chromium?: string | null;
}

const runners = new WeakMap<object, MonitorRunner>();

/** The runner of the server on `db`, if one runs (a script has none). */
export function monitorRunnerOf(db: AnyDb): MonitorRunner | undefined {
  return runners.get(db);
}

interface Registered {
  key: string;
  unregister(): void;
}

export class MonitorRunner {
  readonly settings: MonitoringConfig;
  readonly scheduler: Scheduler;
  readonly browser: BrowserChecker;
  private readonly registered = new Map<number, Registered>();
  private synced = false;
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;

  constructor(private readonly deps: RunnerDeps) {
    this.settings = { ...DEFAULT_MONITORING, ...deps.settings };
    this.scheduler = new Scheduler({
      db: deps.db,
      now: deps.now,
      log: deps.log,
      maxConcurrent: this.settings.maxConcurrent,
      timers: deps.timers,
      holder: deps.holder,
    });
    this.browser = new BrowserChecker({
      executablePath: deps.chromium === undefined ? chromiumPath() : deps.chromium,
      maxPages: this.settings.maxBrowserPages,
      storeScreenshot: async (jpeg) => (await deps.blobs.put(jpeg, 'jpg')).url,
    });
    runners.set(deps.db, this);
  }

  /** Starts the scheduler and the periodic reload of the job list. */
  start(): void {
    this.scheduler.start();
    // History without roll-ups (demo seed, heartbeats from before them) first, then the jobs.
    void backfillRollups(this.deps.db as unknown as AnyDb, this.deps.dialect)
      .then(
        (filled) =>
          filled > 0 && this.deps.log.info({ jobs: filled }, 'monitor roll-ups rebuilt from heartbeats'),
      )
      .catch((err) => this.deps.log.error({ err }, 'rebuilding monitor roll-ups failed'))
      .finally(() => void this.sync());
    this.syncTimer = setInterval(() => void this.sync(), SYNC_EVERY_MS);
    this.syncTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.syncTimer) clearInterval(this.syncTimer);
    await this.syncing?.catch(() => undefined);
    await this.scheduler.stop();
    await this.browser.close();
  }

  /** Checks a job now (the scheduled run and "run now" alike); null when it is paused or gone. */
  async checkJob(jobId: number, signal?: AbortSignal): Promise<Recorded | null> {
    const db = this.deps.db as unknown as AnyDb;
    const job = await jobRow(db, this.deps.dialect, jobId);
    if (!job || job.status === 'paused') return null;
    const policy = await policyOfJobOwner(db, (job.ownerId as number | null) ?? null);
    const at = this.deps.now();
    const spec = job as unknown as JobSpec;
    const env = { policy, signal, resolve: this.deps.resolve };
    let result: CheckResult;
    try {
      result = spec.kind === 'browser' ? await this.browser.check(spec, env) : await runCheck(spec, env);
    } catch (error) {
      // The checks answer every failure of the target; this is a bug of ours, recorded as down.
      this.deps.log.error({ err: error, jobId }, 'monitor check failed');
      result = {
        ok: false,
        httpStatus: null,
        latencyMs: null,
        message: `检查出错（${(error as Error).message}）`,
      };
    }
    if (signal?.aborted) return null; // shutting down: a half-done check is not a verdict
    return recordCheck(
      { db, dialect: this.deps.dialect, publish: this.deps.publish, log: this.deps.log },
      jobId,
      at,
      result,
    );
  }

  /** Reloads the active jobs: registers new and changed ones, unregisters paused and deleted ones. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce()
      .catch((err) => this.deps.log.error({ err }, 'monitor job sync failed'))
      .finally(() => {
        this.syncing = null;
      });
    return this.syncing;
  }

  /** Task names registered in this process (tests, the bench). */
  names(): string[] {
    return [...this.registered.keys()].map(checkTaskName);
  }

  private async syncOnce(): Promise<void> {
    const rows = (await (this.deps.db as unknown as AnyDb)
      .selectFrom('monitor_jobs')
      .select(['id', 'interval_s', 'retry_interval_s', 'status'])
      .where('deleted_at', 'is', null)
      .execute()) as {
      id: number | string;
      interval_s: number | string;
      retry_interval_s: number | string | null;
      status: string;
    }[];
    const first = !this.synced;
    this.synced = true;
    const live = new Set<number>();
    const active = new Set<number>();
    for (const row of rows) {
      const id = Number(row.id);
      live.add(id);
      if (row.status === 'paused') continue;
      active.add(id);
      const intervalMs = Number(row.interval_s) * 1000;
      const retryMs = Number(row.retry_interval_s ?? row.interval_s) * 1000;
      const key = `${intervalMs}/${retryMs}`;
      const known = this.registered.get(id);
      if (known?.key === key) continue;
      if (known) this.drop(id);
      const everyMs = Math.min(intervalMs, retryMs);
      const unregister = this.scheduler.register({
        name: checkTaskName(id),
        everyMs,
        jitterMs: first ? everyMs : LATE_JITTER_MS,
        retryMs: everyMs,
        run: async (ctx) => {
          if (!(await this.due(id, intervalMs, everyMs))) return;
          await this.checkJob(id, ctx.signal);
        },
      });
      this.registered.set(id, { key, unregister });
    }
    for (const id of [...this.registered.keys()]) {
      if (active.has(id)) continue;
      this.drop(id);
      // Deleted (soft-deleted rows never come back): its lease row goes too.
      if (!live.has(id)) await deleteLease(this.deps.db, checkTaskName(id)).catch(() => undefined);
    }
  }

  private drop(id: number): void {
    this.registered.get(id)?.unregister();
    this.registered.delete(id);
  }

  /** Whether the job's check is due: retrying (pending), or its interval has passed. */
  private async due(id: number, intervalMs: number, everyMs: number): Promise<boolean> {
    const job = await jobRow(this.deps.db as unknown as AnyDb, this.deps.dialect, id);
    if (!job || job.status === 'paused') return false;
    if (job.status === 'pending' || !job.lastCheckAt) return true;
    const since = this.deps.now() - Date.parse(String(job.lastCheckAt));
    return since >= intervalMs - everyMs / 2;
  }
}
