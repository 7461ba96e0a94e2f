/** A store that is open, goods with stock, a member customer with money, a runner: an order's world. */
import { getResource } from '@wanxiang/core';
import { moveBalance } from '../../src/domain/finance/ledger.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import type { TestApp } from '../helpers/app.js';
import { type Api, userId } from '../resources/helpers.js';

export interface OrderWorld {
  storeId: number;
  noodles: number;
  tea: number;
  customer: number;
  runner: number;
}

export async function orderWorld(
  t: TestApp,
  options: { balanceFen?: number; stock?: number } = {},
): Promise<OrderWorld> {
  const [storeId] = await t.app.resources.insertRows(getResource('stores'), [
    {
      name: `万象面馆${Math.random().toString(36).slice(2, 7)}`,
      phone: '010-12345678',
      address: '北京市朝阳区建国路 1 号',
      status: 'open',
      packingFeeFen: 100,
      deliveryFeeFen: 500,
      minOrderFen: 0,
    },
  ]);
  const [category] = await t.app.resources.insertRows(getResource('goodsCategories'), [
    { storeId, name: '面食' },
  ]);
  const stock = options.stock ?? 1000;
  const [noodles, tea] = await t.app.resources.insertRows(getResource('goods'), [
    { storeId, categoryId: category, name: '牛肉面', priceFen: 2800, stock, status: 'onSale' },
    {
      storeId,
      categoryId: category,
      name: '奶茶',
      priceFen: 1500,
      stock,
      status: 'onSale',
      specs: [
        { name: '中杯', priceFen: 1500, stock },
        { name: '大杯', priceFen: 1800, stock },
      ],
    },
  ]);
  const [runner] = await t.app.resources.insertRows(getResource('runners'), [
    {
      name: '李骑手',
      phone: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      status: 'idle',
      storeIds: [],
    },
  ]);
  const customer = await userId(t, 'guest');
  if (options.balanceFen)
    await t.app.db
      .transaction()
      .execute((trx) =>
        moveBalance(
          { trx, now: t.clock.now() },
          { userId: customer, changeFen: options.balanceFen as number, kind: 'recharge' },
        ),
      );
  return {
    storeId: storeId as number,
    noodles: noodles as number,
    tea: tea as number,
    customer,
    runner: runner as number,
  };
}

export async function balanceOf(t: TestApp, user: number): Promise<number> {
  const row = await t.app.db
    .selectFrom('users')
    .select('balance_fen')
    .where('id', '=', user)
    .executeTakeFirstOrThrow();
  return Number(row.balance_fen);
}

export async function placeOrder(api: Api, world: OrderWorld, over: Record<string, unknown> = {}) {
  const res = await api.post('/api/admin/orders', {
    storeId: world.storeId,
    userId: world.customer,
    items: [
      { goodsId: world.noodles, qty: 2 },
      { goodsId: world.tea, sku: '大杯', qty: 1 },
    ],
    fulfilment: 'delivery',
    payMethod: 'balance',
    address: '北京市朝阳区望京街 9 号',
    ...over,
  });
  if (res.status !== 200) throw new Error(`order not placed: ${res.text}`);
  return res.body.data as Record<string, unknown> & { id: number; payableFen: number; orderNo: string };
}

/** A receipt printer of the store that prints on acceptance, at a local listener's port; answers its id. */
export async function addAutoPrinter(api: Api, storeId: number, port: number): Promise<number> {
  const created = await api.post('/api/admin/printers', {
    storeId,
    name: '前台小票机',
    host: '127.0.0.1',
    port,
    paperWidth: '58',
    autoPrintOnAccept: true,
  });
  if (created.status !== 200) throw new Error(`printer not added: ${created.text}`);
  return created.body.data.id as number;
}

/** The registry's tables are not in the typed schema. */
export const anyDb = (t: TestApp): AnyDb => t.app.db as unknown as AnyDb;

/** Pays (balance), accepts, prepares, readies and dispatches an order to the world's runner. */
export async function sendOut(api: Api, world: OrderWorld, orderId: number): Promise<void> {
  for (const [step, body] of [
    ['pay', { payMethod: 'balance' }],
    ['accept', {}],
    ['prepare', {}],
    ['ready', {}],
    ['dispatch', { runnerId: world.runner }],
  ] as const) {
    const res = await api.post(`/api/admin/orders/${orderId}/${step}`, body);
    if (res.status !== 200 || !res.body.success) throw new Error(`${step} of order ${orderId}: ${res.text}`);
  }
}

/**
 * Waits until the print job is done: the sender marks it once the printer took the bytes — the
 * job's record, not a clock. Any status but queued or printing on the way fails.
 */
export async function waitPrinted(api: Api, jobId: number): Promise<void> {
  for (;;) {
    const job = (await api.get(`/api/admin/printJobs/${jobId}`)).body.data;
    if (job.status === 'done') return;
    if (job.status !== 'queued' && job.status !== 'printing')
      throw new Error(`print job ${jobId} is ${job.status}: ${job.error}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
