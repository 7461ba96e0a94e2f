/**
 * The sender: takes queued jobs to their printers after the transaction that queued them has
 * committed (never a transaction open over the network), one job at a time per printer, with
 * bounded tries, and records the outcome on the job and the printer.
 *
 * One per database (like counts.ts, state hangs off the database object), made by the area's
 * plugin with the server's settings, so the action handlers — which get the database, not the
 * app — find it. Jobs left queued by a crash are sent when the server starts again.
 */
import { chinaDateTime } from '@wanxiang/core';
import type { FastifyBaseLogger } from 'fastify';
import type { PrintingConfig } from '../../config.js';
import type { DialectName } from '../../db/connect.js';
import { OutboundRefusedError, OutboundUnresolvedError, resolveOutbound } from '../../net/outbound.js';
import type { AnyDb } from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import { epochMs, type WireRow } from '../../resources/storage.js';
import { policyOfUser, printerRefusal } from './address-policy.js';
import { renderReceipt, renderTestPage } from './escpos.js';
import type { PaperWidth } from './gbk-text.js';
import {
  jobModel,
  jobOf,
  markPrinter,
  moveJob,
  orderOf,
  pendingJobs,
  printerOf,
  storeNameOf,
} from './jobs.js';
import { receiptOfOrder } from './receipt.js';
import { PrintFailure, sendToPrinter } from './transport.js';

export const DEFAULT_PRINTING: PrintingConfig = {
  connectTimeoutMs: 3000,
  writeTimeoutMs: 5000,
  attempts: 3,
  retryDelayMs: 1000,
};

/** Jobs queued longer ago than this when they are picked up are not printed late: failed, with why. */
export const RECOVER_MAX_AGE_MS = 60 * 60_000;

/** How often the sender looks for jobs nobody is sending (another process died, a caller never sent). */
export const SWEEP_EVERY_MS = 60_000;

/** A queued job younger than this may be about to be sent by whoever queued it: a sweep leaves it. */
export const QUEUED_GRACE_MS = 30_000;

export const LATE_JOB_ERROR = '服务中断期间超过1小时未能发送，已不再补打，请重新打印';

/** What a job kept queued behind a printer that does not answer says (see `PrintService.held`). */
export const HELD_JOB_ERROR = '打印机暂时无法连接，已排队，恢复后自动补打';

const services = new WeakMap<object, PrintService>();

/** The sender of the server running on `db`, if one runs (a script writing jobs has none). */
export function printServiceOf(db: AnyDb): PrintService | undefined {
  return services.get(db);
}

type Payload = { bytes: Uint8Array } | { error: string };

export class PrintService {
  readonly settings: PrintingConfig;
  /** The last job sent or being sent, per printer: the next one waits for it. */
  private readonly lanes = new Map<number, Promise<unknown>>();
  /**
   * Printers whose last job failed every try, and when (this process's view; a print that gets
   * through clears it).
   *
   * Decision: while a printer does not answer, the automatic prints (an order accepted, the
   * sweep) do not each try it — each would take its whole tries (3 × the connect timeout and the
   * waits, ~12 s with the defaults), so at lunchtime a switched-off printer made a queue in memory
   * that grew with every order and printed the last receipt hours late. A job that finds its
   * printer found unanswering since it was queued here, or less than a sweep's period before,
   * stays queued in the database with why (`HELD_JOB_ERROR`), holding no memory; the sweep tries
   * the oldest each period, and once one gets through the rest follow in order — the printer
   * reprints what it missed, as 美团/饿了么's printers do when they come back. A print asked for by
   * hand (打印小票, 测试打印) always tries: the person is waiting for its outcome.
   */
  private readonly down = new Map<number, number>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: AnyDb,
    /** SQLite is one process: at its start, every job left queued or printing was abandoned. */
    private readonly dialect: DialectName,
    settings: Partial<PrintingConfig> | undefined,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.settings = { ...DEFAULT_PRINTING, ...settings };
    services.set(db, this);
  }

  /** The longest one job can take: a job printing for twice that has lost its sender. */
  get staleMs(): number {
    const { attempts, connectTimeoutMs, writeTimeoutMs, retryDelayMs } = this.settings;
    const tries = attempts * (connectTimeoutMs * 2 + writeTimeoutMs);
    const waits = (retryDelayMs * attempts * (attempts - 1)) / 2;
    return 2 * (tries + waits) + 60_000;
  }

  /**
   * Sends the job after the jobs before it on its printer; answers the job as it ends (done,
   * failed, or as another sender left it).
   */
  send(jobId: number): Promise<WireRow | null> {
    return this.track(this.enqueue(jobId, false));
  }

  /** The automatic prints of an accepted order: each as `send`, but held while the printer is down (`down`). */
  sendAll(jobIds: readonly number[]): Promise<(WireRow | null)[]> {
    return this.track(
      (async () => {
        // Read together, then lined up in the order given: reads resolving out of order (a pool
        // on PostgreSQL) must not let a later receipt go first.
        const jobs = await Promise.all(jobIds.map((id) => jobOf(this.db, id)));
        return this.sendJobs(jobs);
      })(),
    );
  }

  /**
   * `sendAll` for jobs already in hand (as the transaction that queued them wrote them): lined up
   * in the order given. A row that has moved on since is safe to pass: the sender claims each job
   * only while it is still queued. Each send is tracked (`idle` waits for it).
   */
  sendJobs(jobs: readonly (WireRow | null)[]): Promise<(WireRow | null)[]> {
    return Promise.all(
      jobs.map((job) => (job?.status === 'queued' ? this.track(this.line(job, true)) : job)),
    );
  }

  /** Resolves once nothing is being sent. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Jobs nobody is sending are sent; those queued too long ago are failed with why. At start
   * (`atStart`) on SQLite that is every queued or printing job (the process that had them is
   * this one, restarted); otherwise — several processes on PostgreSQL, and the sweeps — jobs
   * queued for over 30 s and jobs printing for longer than any job can take.
   */
  recover(atStart = false): Promise<void> {
    return this.track(this.recoverNow(atStart && this.dialect === 'sqlite'));
  }

  /**
   * Stops waiting between tries (the job goes back to queued for the next start), starts no job
   * still waiting for its printer, and waits for the tries in flight.
   */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.idle();
    services.delete(this.db);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    work.finally(() => this.running.delete(work)).catch(() => undefined);
    return work;
  }

  private async recoverNow(all: boolean): Promise<void> {
    const now = this.now();
    const jobs = await pendingJobs(
      this.db,
      all
        ? { queued: now + 1, printing: now + 1 }
        : {
            queued: now - QUEUED_GRACE_MS,
            printing: now - this.staleMs,
          },
    );
    for (const job of jobs) {
      if (job.status === 'printing') {
        // Its sender died mid-job: nothing acknowledged it, so it is queued again.
        const reset = await changeRow(this.db, jobModel(), job.id, now, {
          values: { status: 'queued' },
          when: { status: ['printing'] },
          version: epochMs(job.updatedAt),
        });
        if (!reset) continue;
      }
      if (now - (epochMs(job.createdAt) ?? now) > RECOVER_MAX_AGE_MS) {
        await moveJob(this.db, job.id, now, ['queued'], { status: 'failed', error: LATE_JOB_ERROR });
        continue;
      }
      void this.track(this.line(job, true, true));
    }
    if (jobs.length > 0) this.log.info({ jobs: jobs.length }, 'print jobs nobody was sending picked up');
  }

  private async enqueue(jobId: number, hold: boolean): Promise<WireRow | null> {
    const job = await jobOf(this.db, jobId);
    if (job?.status !== 'queued') return job;
    return this.line(job, hold);
  }

  /**
   * Puts a queued job in its printer's line, at once (the sweep lines up its jobs in their order).
   * `hold`: an automatic print, kept queued while its printer is down (`down`); `sweep`: the
   * sweep's, which tries the printer again however recently it was found down.
   */
  private line(job: WireRow, hold: boolean, sweep = false): Promise<WireRow | null> {
    const printerId = job.printerId as number;
    const queuedAt = this.now();
    if (hold && !sweep && this.isDown(printerId, queuedAt - SWEEP_EVERY_MS)) return this.held(job);
    const before = this.lanes.get(printerId) ?? Promise.resolve();
    const mine = before.then(() =>
      // Found down while this one waited: it waits in the database instead.
      hold && this.isDown(printerId, queuedAt) ? this.held(job) : this.run(job.id),
    );
    const lane = mine.catch(() => undefined);
    this.lanes.set(printerId, lane);
    lane.then(() => {
      if (this.lanes.get(printerId) === lane) this.lanes.delete(printerId);
    });
    return mine;
  }

  /**
   * The printers an automatic print would be held for now (found down within the sweep's
   * minute): their jobs can be written held in their own transaction (`printOrderOnAccept`).
   */
  downPrinters(): number[] {
    const since = this.now() - SWEEP_EVERY_MS;
    return [...this.down.keys()].filter((id) => this.isDown(id, since));
  }

  /** Whether the printer was found not answering at or after `since`. */
  private isDown(printerId: number, since: number): boolean {
    const at = this.down.get(printerId);
    return at !== undefined && at >= since;
  }

  /**
   * The job stays queued, saying why (the sweep sends it once the printer answers). One that says
   * so already is left as it is: a sweep lines up every job waiting for a printer behind a try of
   * the oldest, and while the printer stays off, rewriting each of them after that try failed was
   * a write per waiting job per minute — hundreds at a busy store's lunchtime — that changed nothing.
   */
  private async held(job: WireRow): Promise<WireRow | null> {
    if (job.error === HELD_JOB_ERROR) return job;
    return (
      (await moveJob(this.db, job.id, this.now(), ['queued'], { error: HELD_JOB_ERROR })) ??
      jobOf(this.db, job.id)
    );
  }

  /** One job: claim it, render it, try up to `attempts` times, record the outcome. */
  private async run(jobId: number): Promise<WireRow | null> {
    // Stopping: jobs still waiting behind others on their printer are not started — each could
    // take a whole try against a printer that does not answer, and a queue of them would hold
    // the shutdown for minutes. They stay queued; the next start (or another process's sweep)
    // sends them.
    if (this.stopping.signal.aborted) return jobOf(this.db, jobId);
    const claimed = await moveJob(this.db, jobId, this.now(), ['queued'], { status: 'printing' });
    // Another sender took it meanwhile: it answers for it.
    if (!claimed) return jobOf(this.db, jobId);
    const printer = await printerOf(this.db, claimed.printerId as number);
    if (!printer || printer.deleted) return this.fail(claimed, '打印机已删除', null, false);
    const payload = await this.payload(claimed, printer);
    if ('error' in payload) return this.fail(claimed, payload.error, null, false);

    const host = String(printer.host);
    const port = Number(printer.port);
    const where = `${host}:${port}`;
    const { attempts, retryDelayMs } = this.settings;
    let error = '';
    let reached = false;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const policy = await policyOfUser(this.db, (printer.addressSetById as number | null) ?? null);
        const targets = await resolveOutbound(host, policy, { timeoutMs: this.settings.connectTimeoutMs });
        await sendToPrinter(targets, port, payload.bytes, this.settings, where);
        return this.finish(claimed, attempt, payload.bytes.length, printer.id);
      } catch (failure) {
        if (failure instanceof OutboundRefusedError) {
          // A policy refusal does not change by trying again.
          return this.fail(
            claimed,
            printerRefusal(failure),
            printer.id,
            false,
            attempt,
            payload.bytes.length,
          );
        }
        error =
          failure instanceof PrintFailure || failure instanceof OutboundUnresolvedError
            ? failure.message
            : `打印失败（${where}）：${(failure as Error).message}`;
        reached ||= failure instanceof PrintFailure && failure.connected;
        await moveJob(this.db, jobId, this.now(), ['printing'], { attempts: attempt, error });
        this.log.warn({ jobId, printerId: printer.id, attempt, error }, 'print try failed');
      }
      if (attempt < attempts && !(await this.wait(retryDelayMs * attempt))) {
        // The server is stopping: the job waits for the next start.
        return (await moveJob(this.db, jobId, this.now(), ['printing'], { status: 'queued' })) ?? null;
      }
    }
    // Every try failed (refused, unanswered, never acknowledged): the automatic prints behind it
    // wait in the database (`down`).
    this.down.set(printer.id, this.now());
    return this.fail(claimed, error, printer.id, reached, attempts, payload.bytes.length);
  }

  private async payload(job: WireRow, printer: WireRow): Promise<Payload> {
    const paperWidth = Number(printer.paperWidth) as PaperWidth;
    if (job.kind === 'test') {
      const printedAt = chinaDateTime(job.createdAt as string) ?? '';
      return {
        bytes: renderTestPage({
          printerName: String(printer.name),
          paperWidth,
          printedAt,
          qr: `TEST-${job.id}`,
        }),
      };
    }
    const order = job.orderId === null ? null : await orderOf(this.db, job.orderId as number);
    if (!order) return { error: '订单不存在' };
    const storeName = (await storeNameOf(this.db, order.storeId as number)) ?? '';
    const copies = Math.max(1, Number(job.copies) || 1);
    return { bytes: renderReceipt(receiptOfOrder(order, storeName), { paperWidth, copies }) };
  }

  private async finish(
    job: WireRow,
    attempts: number,
    bytes: number,
    printerId: number,
  ): Promise<WireRow | null> {
    const now = this.now();
    this.down.delete(printerId);
    await markPrinter(this.db, printerId, now, true, true);
    return (
      (await moveJob(this.db, job.id, now, ['printing'], {
        status: 'done',
        attempts,
        error: null,
        bytes,
        printedAt: now,
      })) ?? null
    );
  }

  private async fail(
    job: WireRow,
    error: string,
    printerId: number | null,
    reached: boolean,
    attempts = 0,
    bytes = 0,
  ): Promise<WireRow | null> {
    const now = this.now();
    if (printerId !== null) await markPrinter(this.db, printerId, now, reached, false);
    return (
      (await moveJob(this.db, job.id, now, ['printing'], { status: 'failed', attempts, error, bytes })) ??
      null
    );
  }

  /** Waits `ms`; false when the server began stopping meanwhile. */
  private wait(ms: number): Promise<boolean> {
    const signal = this.stopping.signal;
    if (signal.aborted) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', stop);
        resolve(true);
      }, ms);
      const stop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', stop, { once: true });
    });
  }
}
