/**
 * Receipt printers (README.md): the receipt as ESC/POS bytes for 58 and 80 mm paper with GBK
 * text, print jobs sent over TCP after their transaction commits, the test print, and the
 * automatic print when an order is accepted (`printOrderOnAccept` + `sendWritten`).
 */
import fp from 'fastify-plugin';
import { carryOut, type Planned } from '../../db/together.js';
import type { ActingUser, AnyDb } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import type { DomainArea } from '../area.js';
import { queuedReceipts, queueReceiptsQuery } from './jobs.js';
import { register } from './resource.js';
import { HELD_JOB_ERROR, PrintService, printServiceOf, SWEEP_EVERY_MS } from './service.js';

export { printServiceOf } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The print job sender (domain/printing/service.ts). */
    printing: PrintService;
  }
}

export interface AcceptedOrder {
  orderId: number;
  storeId: number;
  /** Who accepted it (the job's 操作人); null when the store accepted it by itself. */
  actor: ActingUser | null;
  /** The transaction's time (the handler's `ctx.now`). */
  now?: number;
}

/**
 * Queues the order's receipt on every printer of its store that prints on acceptance, in the
 * caller's transaction; settles to how many it queued and the jobs to send once that transaction
 * has committed, as the INSERT returned them (for `sendWritten`: the sender reads nothing back).
 * A plan (db/together.ts): an accept sends its one statement with the status change. A printer
 * this process found down within the sweep's minute (`PrintService.downPrinters`) gets its job
 * already held, as the sender would leave it (HELD_JOB_ERROR), and the sweep sends it; there is
 * nothing to send now. No printer is not an error: accepting never fails for printing. When it
 * queued any, the caller should also `ctx.touched('printJobs')`.
 */
export function planOrderPrint(
  trx: AnyDb,
  order: AcceptedOrder,
  service?: PrintService,
): Planned<{ queued: number; jobs: WireRow[] }> {
  const query = queueReceiptsQuery(trx, {
    orderId: order.orderId,
    storeId: order.storeId,
    operatorId: order.actor?.id ?? null,
    now: order.now ?? Date.now(),
    held: service?.downPrinters() ?? [],
    heldError: HELD_JOB_ERROR,
  });
  return {
    queries: [query],
    async settle([rows]) {
      const written = queuedReceipts(rows ?? []);
      return { queued: written.length, jobs: written.filter((w) => !w.held).map((w) => w.job) };
    },
  };
}

/** `planOrderPrint` carried out alone. */
export async function printOrderOnAccept(
  trx: AnyDb,
  order: AcceptedOrder,
  service?: PrintService,
): Promise<{ queued: number; jobs: WireRow[] }> {
  return carryOut(trx, planOrderPrint(trx, order, service));
}

/**
 * Sends queued jobs (after the commit that wrote them); answers each job as it ended. Without a
 * running server on `db` (a script) they stay queued and the next start sends them. Await it to
 * know the outcome, or let it run: failures are recorded on the jobs, never thrown.
 */
export async function sendQueued(db: AnyDb, jobIds: readonly number[]): Promise<(WireRow | null)[]> {
  const service = printServiceOf(db);
  if (!service || jobIds.length === 0) return [];
  return service.sendAll(jobIds);
}

/** `sendQueued` for jobs as their transaction wrote them (`planOrderPrint`'s `jobs`): not read again. */
export async function sendWritten(db: AnyDb, jobs: readonly WireRow[]): Promise<(WireRow | null)[]> {
  const service = printServiceOf(db);
  if (!service || jobs.length === 0) return [];
  return service.sendJobs(jobs);
}

export const printingPlugin = fp(
  async (app) => {
    const service = new PrintService(app.db, app.dbDialect, app.config.printing, app.config.now, app.log);
    app.decorate('printing', service);
    const pickUp = (atStart: boolean) =>
      service.recover(atStart).catch((err) => app.log.error({ err }, 'picking up print jobs failed'));
    // Jobs a crash left queued go out once the server is up (the start does not wait for them),
    // and every minute whatever nobody is sending (another process died, a caller never sent).
    const sweep = setInterval(() => pickUp(false), SWEEP_EVERY_MS);
    sweep.unref();
    app.addHook('onReady', async () => {
      void pickUp(true);
    });
    // Before the database closes: stop sweeping and waiting between tries, let tries in flight end.
    app.addHook('preClose', async () => {
      clearInterval(sweep);
      await service.close();
    });
  },
  { name: 'wanxiang-printing', dependencies: ['wanxiang-database'] },
);

export const printingArea: DomainArea = { name: 'printing', register, routes: printingPlugin };
