/**
 * The delivery record follows the order (DOMAIN.md runner): created waiting when a delivery
 * order is accepted, assigned to a runner by dispatch, picked up when the order starts
 * delivering, delivered with it, failed when the order is cancelled. The runner's status follows
 * his open deliveries: delivering while he has one, idle when the last is done.
 */
import { sql } from 'kysely';
import { conflict } from '../../http/envelope.js';
import { appendRow } from '../../resources/actions.js';
import type { AnyDb } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import { modelOf, type WireRow } from '../../resources/storage.js';
import { def, rowById } from './rows.js';

const OPEN = ['waiting', 'assigned', 'pickedUp'];
const deliveries = () => modelOf(def('deliveries')).table;
const runners = () => modelOf(def('runners')).table;

export interface DeliveryTx {
  trx: AnyDb;
  now: number;
  touched(resource: string): void;
}

export async function deliveryOf(trx: AnyDb, orderId: number) {
  return trx.selectFrom(deliveries()).selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

export async function requestRunner(tx: DeliveryTx, order: WireRow): Promise<void> {
  if (order.fulfilment !== 'delivery' || (await deliveryOf(tx.trx, order.id))) return;
  await appendRow(
    tx.trx,
    def('deliveries'),
    { orderId: order.id, status: 'waiting', feeFen: Number(order.deliveryFen ?? 0) },
    tx.now,
  );
  tx.touched('deliveries');
}

/** A runner who may take this store's orders and is on duty, or a Chinese reason why not. */
async function checkRunner(trx: AnyDb, runnerId: number, storeId: number): Promise<WireRow> {
  const runner = await rowById(trx, 'runners', runnerId);
  if (!runner) throw conflict('所选的骑手不存在');
  if (runner.status === 'offline') throw conflict(`骑手${runner.name}已离线，不能派单`);
  const stores = (runner.storeIds ?? []) as number[];
  if (stores.length > 0 && !stores.includes(storeId)) throw conflict(`骑手${runner.name}不服务该门店`);
  return runner;
}

async function setRunnerStatus(tx: DeliveryTx, runnerId: number): Promise<void> {
  const open = await tx.trx
    .selectFrom(deliveries())
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('runner_id', '=', runnerId)
    .where('status', 'in', ['assigned', 'pickedUp'])
    .executeTakeFirst();
  const busy = Number(open?.n ?? 0) > 0;
  await tx.trx
    .updateTable(runners())
    .set({ status: busy ? 'delivering' : 'idle', updated_at: nextUpdatedAt(tx.now) })
    .where('id', '=', runnerId)
    .where('status', '!=', 'offline')
    .execute();
  tx.touched('runners');
}

/**
 * Assigns (or reassigns) the order's waiting or assigned delivery to a runner; the previous
 * runner, if any, is freed. The order keeps the runner too (`orders.runnerId`).
 */
export async function assignRunner(tx: DeliveryTx, order: WireRow, runnerId: number): Promise<void> {
  const delivery = await deliveryOf(tx.trx, order.id);
  if (!delivery) throw conflict('订单还没有配送单（接单后生成）');
  if (!['waiting', 'assigned'].includes(String(delivery.status))) throw conflict('骑手已取货，不能再改派');
  await checkRunner(tx.trx, runnerId, Number(order.storeId));
  const previous = delivery.runner_id == null ? null : Number(delivery.runner_id);
  await tx.trx
    .updateTable(deliveries())
    .set({ runner_id: runnerId, status: 'assigned', assigned_at: tx.now, updated_at: nextUpdatedAt(tx.now) })
    .where('id', '=', delivery.id)
    .execute();
  await tx.trx
    .updateTable(modelOf(def('orders')).table)
    .set({ runner_id: runnerId, updated_at: nextUpdatedAt(tx.now) })
    .where('id', '=', order.id)
    .execute();
  tx.touched('deliveries');
  tx.touched('orders');
  await setRunnerStatus(tx, runnerId);
  if (previous !== null && previous !== runnerId) await setRunnerStatus(tx, previous);
}

/** The order starts delivering: its runner (given now, or assigned before) has picked it up. */
export async function startDelivery(
  tx: DeliveryTx,
  order: WireRow,
  runnerId: number | null,
): Promise<number> {
  const delivery = await deliveryOf(tx.trx, order.id);
  if (!delivery) throw conflict('订单还没有配送单（接单后生成）');
  if (runnerId !== null && Number(delivery.runner_id) !== runnerId) await assignRunner(tx, order, runnerId);
  const assigned = runnerId ?? (delivery.runner_id == null ? null : Number(delivery.runner_id));
  if (assigned === null) throw conflict('请先指派骑手');
  await tx.trx
    .updateTable(deliveries())
    .set({ status: 'pickedUp', picked_up_at: tx.now, updated_at: nextUpdatedAt(tx.now) })
    .where('order_id', '=', order.id)
    .execute();
  await setRunnerStatus(tx, assigned);
  return assigned;
}

export async function finishDelivery(tx: DeliveryTx, order: WireRow): Promise<void> {
  const delivery = await deliveryOf(tx.trx, order.id);
  if (!delivery || delivery.status === 'delivered') return;
  await tx.trx
    .updateTable(deliveries())
    .set({ status: 'delivered', delivered_at: tx.now, updated_at: nextUpdatedAt(tx.now) })
    .where('id', '=', delivery.id)
    .execute();
  tx.touched('deliveries');
  if (delivery.runner_id != null) {
    const runnerId = Number(delivery.runner_id);
    await tx.trx
      .updateTable(runners())
      .set({ today_count: sql`coalesce(today_count, 0) + 1`, updated_at: nextUpdatedAt(tx.now) })
      .where('id', '=', runnerId)
      .execute();
    await setRunnerStatus(tx, runnerId);
  }
}

export async function cancelDelivery(tx: DeliveryTx, order: WireRow, reason: string): Promise<void> {
  const delivery = await deliveryOf(tx.trx, order.id);
  if (!delivery || !OPEN.includes(String(delivery.status))) return;
  await tx.trx
    .updateTable(deliveries())
    .set({
      status: 'failed',
      fail_reason: `订单已取消：${reason}`.slice(0, 200),
      updated_at: nextUpdatedAt(tx.now),
    })
    .where('id', '=', delivery.id)
    .execute();
  tx.touched('deliveries');
  if (delivery.runner_id != null) await setRunnerStatus(tx, Number(delivery.runner_id));
}
