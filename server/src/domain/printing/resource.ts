/**
 * The printing actions of the registry: `printers.testPrint` and `orders.print`. Each queues a
 * job in the action's transaction (with its audit entry) and, once that has committed, sends it
 * and answers the job as it ended (API.md: the print job `{id, status, error?}`), with the
 * outcome as the answer's message: 打印成功, or why not.
 */
import { ErrorCode } from '@wanxiang/core';
import { ApiError, conflict, invalidInput } from '../../http/envelope.js';
import { OutboundRefusedError, resolveOutbound } from '../../net/outbound.js';
import type { ActionHandlerSpec, AnyDb, EngineExtensions } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import { policyOfUser, printerHooks, printerRefusal } from './address-policy.js';
import { jobOf, orderOf, printerOf, queueJob, storeNameOf, storePrinters } from './jobs.js';
import { DEFAULT_PRINTING, printServiceOf } from './service.js';

/** What an action carries from `prepare` through `run` (which fills `jobIds`) to `afterCommit`. */
interface Queued {
  printerId: number | null;
  jobIds: number[];
}

/**
 * 403 before anything is written when the printer's address is one its setter may not have the
 * server reach (a host name resolving to this machine or the LAN). The sender checks again
 * when it connects: this only spares a job that could not print.
 */
async function refuseUnreachable(db: AnyDb, printer: WireRow): Promise<void> {
  const policy = await policyOfUser(db, (printer.addressSetById as number | null) ?? null);
  const timeoutMs = printServiceOf(db)?.settings.connectTimeoutMs ?? DEFAULT_PRINTING.connectTimeoutMs;
  try {
    await resolveOutbound(String(printer.host), policy, { timeoutMs });
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new ApiError({ status: 403, errorCode: ErrorCode.forbidden, message: printerRefusal(error) });
    // A name that does not resolve now is the job's failure to report, after its tries.
  }
}

/** Sends the job the action queued and answers it as it ended. */
const sendAfterCommit: NonNullable<ActionHandlerSpec['afterCommit']> = async (ctx, answer) => {
  const [jobId] = (ctx.prepared as Queued).jobIds;
  if (jobId === undefined) return answer;
  const service = printServiceOf(ctx.db);
  // Without a running server (a script) the job stays queued: the next start sends it.
  const job = service ? await service.send(jobId) : await jobOf(ctx.db, jobId);
  return job ?? answer;
};

/** The answer's message: what became of the print. */
export function jobMessage(job: WireRow): string | undefined {
  switch (job.status) {
    case 'done':
      return '打印成功';
    case 'failed':
      return typeof job.error === 'string' ? job.error : '打印失败';
    case 'queued':
      return '已加入打印队列';
    case 'printing':
      return '正在打印';
    default:
      return undefined;
  }
}

const testPrint: ActionHandlerSpec = {
  async prepare(ctx): Promise<Queued> {
    const printer = await printerOf(ctx.db, ctx.id);
    // A missing printer is the engine's 404, in the transaction.
    if (printer && !printer.deleted) await refuseUnreachable(ctx.db, printer);
    return { printerId: ctx.id, jobIds: [] };
  },
  async run(ctx) {
    const jobId = await queueJob(ctx.trx, {
      printerId: ctx.id,
      orderId: null,
      kind: 'test',
      copies: 1,
      operatorId: ctx.user?.id ?? null,
      now: ctx.now,
    });
    (ctx.prepared as Queued).jobIds.push(jobId);
    ctx.touched('printJobs');
    return undefined;
  },
  afterCommit: sendAfterCommit,
  message: jobMessage,
};

const printOrder: ActionHandlerSpec = {
  async prepare(ctx): Promise<Queued> {
    const order = await orderOf(ctx.db, ctx.id);
    // A missing order is the engine's 404, in the transaction.
    if (!order) return { printerId: null, jobIds: [] };
    const printers = await storePrinters(ctx.db, order.storeId as number);
    const wanted = ctx.input.printerId as number | null | undefined;
    let printer: WireRow | undefined;
    if (wanted !== null && wanted !== undefined) {
      printer = printers.find((p) => p.id === wanted);
      if (!printer) {
        const other = await printerOf(ctx.db, wanted);
        throw invalidInput({
          printerId: other && !other.deleted ? '所选打印机不属于该订单的门店' : '所选的打印机不存在',
        });
      }
    } else {
      printer = printers[0];
      if (!printer) {
        const store = (await storeNameOf(ctx.db, order.storeId as number)) ?? '';
        throw conflict(`门店「${store}」还没有小票打印机，请先在“小票打印机”中添加`);
      }
    }
    await refuseUnreachable(ctx.db, printer);
    return { printerId: printer.id, jobIds: [] };
  },
  async run(ctx) {
    const prepared = ctx.prepared as Queued;
    // Read again in the transaction: copies as they are now, and not deleted meanwhile.
    const printer = prepared.printerId === null ? null : await printerOf(ctx.trx, prepared.printerId);
    if (!printer || printer.deleted) throw conflict('打印机已删除，请重新选择');
    const jobId = await queueJob(ctx.trx, {
      printerId: printer.id,
      orderId: ctx.id,
      kind: 'receipt',
      copies: Number(printer.copies) || 1,
      operatorId: ctx.user?.id ?? null,
      now: ctx.now,
    });
    prepared.jobIds.push(jobId);
    ctx.touched('printJobs');
    return undefined;
  },
  afterCommit: sendAfterCommit,
  message: jobMessage,
};

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('printers', printerHooks);
  engine.registerActionHandler('printers', 'testPrint', testPrint);
  engine.registerActionHandler('orders', 'print', printOrder);
}
