/**
 * Food-ordering operations (DOMAIN.md "OMS"): counter orders priced by core, the order machine's
 * moves with their money, stock, coupons, points and deliveries, refunds, and the timeline.
 * See README.md.
 */
import {
  can,
  decideOrderMove,
  ORDER_MOVES,
  orderCreateJsonSchema,
  orderDraftJsonSchema,
} from '@wanxiang/core';
import type { FastifyInstance } from 'fastify';
import { conflict, invalidInput, notFound, ok } from '../../http/envelope.js';
import { changeRowWhen } from '../../resources/actions.js';
import type { ActionContext, EngineExtensions } from '../../resources/extensions.js';
import { parseId } from '../../resources/query.js';
import type { WireRow } from '../../resources/storage.js';
import type { DomainArea } from '../area.js';
import { planOrderPrint, printServiceOf, sendWritten } from '../printing/index.js';
import { createOrder, previewPrice } from './create.js';
import { findCustomers } from './customers.js';
import { assignRunner } from './deliveries.js';
import { dispatchBoard } from './dispatch.js';
import { readHistory } from './history.js';
import { announce, type MoveServices, moveOrder, ORDER_TOPIC } from './moves.js';
import { refundOrder } from './refunds.js';
import { rowById } from './rows.js';
import { orderTasks } from './timers.js';

/** The machine's own words for a move the order's state does not allow. */
function refusalOf(row: WireRow, move: string): Error {
  const decision = decideOrderMove(
    { status: String(row.status), fulfilment: String(row.fulfilment) },
    move,
    'merchant',
    {
      reason: 'x',
    },
  );
  return conflict(decision.ok ? '当前状态不能执行此操作' : decision.message);
}

const staff = (ctx: ActionContext) => ({ actor: 'merchant' as const, userId: ctx.user?.id ?? null });

export function registerOrders(engine: EngineExtensions, services: MoveServices = {}): void {
  engine.registerCreateHandler('orders', {
    bodySchema: orderCreateJsonSchema(),
    description:
      '柜台下单：服务端按商品、规格和数量以核心计价函数计算金额（不采信客户端金额），订单为待支付。',
    run: (ctx) => createOrder(ctx, ctx.body, ctx.user?.id ?? null),
  });
  for (const move of ORDER_MOVES.filter((m) => m.by.includes('merchant')))
    engine.registerActionHandler('orders', move.name, {
      run: (ctx) => moveOrder(ctx, services, ctx.id, move.name, staff(ctx), ctx.input, ctx.row),
      refusal: (row) => refusalOf(row, move.name),
    });

  engine.registerActionHandler('orders', 'refund', async (ctx) => {
    const { reason, amountFen, lines } = ctx.input as {
      reason: string;
      amountFen?: number | null;
      lines?: { index: number; qty: number }[] | null;
    };
    if (amountFen != null && lines != null)
      throw invalidInput({ amountFen: '按金额退款与按商品退款只能选一种' });
    const order = (await rowById(ctx.trx, 'orders', ctx.id)) as WireRow;
    const request = lines ? { lines } : amountFen != null ? { amountFen } : {};
    const record = await refundOrder(ctx, order, request, { reason, operatorId: ctx.user?.id ?? null });
    ctx.touched('orderHistory');
    announce(ctx, 'refund', order);
    return record ?? order;
  });

  engine.registerActionHandler('orderRefunds', 'approve', async (ctx) => {
    const order = await rowById(ctx.trx, 'orders', Number(ctx.row.orderId));
    if (!order) throw notFound('退款对应的订单不存在');
    const record = await refundOrder(
      ctx,
      order,
      { amountFen: Number(ctx.row.amountFen) },
      {
        reason: String(ctx.row.reason ?? '顾客申请退款'),
        operatorId: ctx.user?.id ?? null,
        refundId: ctx.id,
      },
    );
    ctx.touched('orders');
    return record ?? undefined;
  });

  engine.registerActionHandler('deliveries', 'assign', async (ctx) => {
    const order = await rowById(ctx.trx, 'orders', Number(ctx.row.orderId));
    if (!order) throw notFound('配送单对应的订单不存在');
    await assignRunner(ctx, order, Number(ctx.input.runnerId));
    announce(ctx, 'assigned', order, { runnerId: ctx.input.runnerId });
    return undefined;
  });

  engine.registerActionHandler('orderRefunds', 'reject', async (ctx) => {
    await changeRowWhen(
      ctx,
      { status: ['pending'] },
      {
        status: 'rejected',
        rejectReason: ctx.input.rejectReason,
        operatorId: ctx.user?.id ?? null,
        processedAt: ctx.now,
      },
    );
    return undefined;
  });
}

async function routes(app: FastifyInstance): Promise<void> {
  // The order board (OMS/order) and the dispatch screen (runner/dispatch) listen to every order's
  // news; whoever may read either screen may hear it.
  app.hub.allowTopic(
    ORDER_TOPIC,
    (user) =>
      user !== null && (can(user.permissions, 'oms', 'read') || can(user.permissions, 'runner', 'read')),
  );

  app.get<{ Querystring: { storeId?: string } }>(
    '/api/admin/dispatch',
    {
      preHandler: app.requirePermission('runner', 'read'),
      schema: { tags: ['orders'], summary: '调度：待派单的配送单、推荐骑手与在岗骑手' },
    },
    async (request) => {
      const raw = request.query.storeId;
      const storeId = raw === undefined || raw === '' ? null : parseId(raw);
      if (raw !== undefined && raw !== '' && storeId === null) throw invalidInput({ storeId: '门店无效' });
      return ok(await dispatchBoard(app.db as never, storeId));
    },
  );

  const read = app.requirePermission('oms', 'read');
  const tags = ['orders'];
  app.post(
    '/api/admin/orders/price',
    {
      preHandler: read,
      // Documents the body; core's zod schema is the one check (create.ts).
      validatorCompiler: () => () => true,
      schema: {
        tags,
        summary: '订单：算价（与下单同一计价函数，不保存）',
        body: orderDraftJsonSchema(),
      },
    },
    async (request) => ok(await previewPrice(app.db, request.body, app.config.now())),
  );
  app.get<{ Querystring: { q?: string } }>(
    '/api/admin/orders/customers',
    {
      preHandler: app.requirePermission('oms', 'write'),
      schema: { tags, summary: '订单：收银台查找会员（手机号、用户名或昵称），含余额与积分' },
    },
    async (request) => ok(await findCustomers(app.db as never, String(request.query.q ?? ''))),
  );
  app.get<{ Params: { id: string } }>(
    '/api/admin/orders/:id/history',
    { preHandler: read, schema: { tags, summary: '订单：操作记录（时间线）' } },
    async (request) => {
      const id = parseId(request.params.id);
      if (id === null || !(await rowById(app.db, 'orders', id))) throw notFound('订单不存在');
      return ok(await readHistory(app.db, id));
    },
  );
}

/**
 * The receipt printed when an order is accepted (the machine's `printReceipt`): queued in the
 * move's transaction on the store's printers that print on acceptance, sent after the commit
 * (domain/printing). Accepting never fails for printing; a printer's failure is on its job.
 */
export const receiptPrinting: MoveServices = {
  printReceipt(tx, order, mover) {
    const plan = planOrderPrint(
      tx.trx,
      {
        orderId: order.id,
        storeId: Number(order.storeId),
        actor: mover.userId === null ? null : { id: mover.userId },
        now: tx.now,
      },
      printServiceOf(tx.db),
    );
    return {
      queries: plan.queries,
      async settle(rows) {
        const { queued, jobs } = await plan.settle(rows);
        if (queued === 0) return;
        tx.touched('printJobs');
        if (jobs.length > 0) tx.afterCommit(() => sendWritten(tx.db, jobs));
      },
    };
  },
};

export const ordersArea: DomainArea = {
  name: 'orders',
  register: (engine) => registerOrders(engine, receiptPrinting),
  routes,
  tasks: (app) => orderTasks(app, receiptPrinting),
};
