/**
 * The dispatcher's view (runner/dispatch): deliveries waiting for a runner or assigned and not yet
 * picked up, each with core's ranked runners (`rankRunners`: idle, nearest to the store, fewest
 * open deliveries), and every runner on duty with his open deliveries. Assigning is the
 * deliveries' `assign` action (index.ts).
 */
import { getResource, rankRunners } from '@wanxiang/core';
import { sql } from 'kysely';
import { planLiterals } from '../../db/plan-literal.js';
import type { AnyDb } from '../../resources/extensions.js';
import { modelOf, toWireRow } from '../../resources/storage.js';

const table = (name: string) => modelOf(getResource(name)).table;

export async function dispatchBoard(db: AnyDb, storeId: number | null) {
  let waiting = db
    .selectFrom(`${table('deliveries')} as d`)
    .innerJoin(`${table('orders')} as o`, 'o.id', 'd.order_id')
    .innerJoin(`${table('stores')} as s`, 's.id', 'o.store_id')
    .select([
      'd.id as deliveryId',
      'd.status as deliveryStatus',
      'd.runner_id as runnerId',
      'd.fee_fen as feeFen',
      'd.created_at as requestedAt',
      'o.id as orderId',
      'o.order_no as orderNo',
      'o.status as orderStatus',
      'o.address as address',
      'o.payable_fen as payableFen',
      'o.store_id as storeId',
      's.name as storeName',
      's.lng as storeLng',
      's.lat as storeLat',
    ])
    .where('d.status', 'in', ['waiting', 'assigned'])
    .orderBy('d.created_at')
    .limit(200);
  if (storeId !== null) waiting = waiting.where('o.store_id', '=', storeId);
  const rows = await waiting.execute();

  const runnerModel = modelOf(getResource('runners'));
  const runnerRows = await db
    .selectFrom(runnerModel.table)
    .selectAll()
    .where('deleted_at', 'is', null)
    .where('status', '!=', 'offline')
    .orderBy('id')
    .execute();
  const open = await db
    .selectFrom(table('deliveries'))
    .select(['runner_id', sql<number>`count(*)`.as('n')])
    .where('status', 'in', planLiterals(['assigned', 'pickedUp']))
    .where('runner_id', 'is not', null)
    .groupBy('runner_id')
    .execute();
  const openBy = new Map(open.map((r) => [Number(r.runner_id), Number(r.n)]));
  const runners = runnerRows.map((r) => {
    const wire = toWireRow(runnerModel, r);
    return {
      id: wire.id,
      name: String(wire.name),
      phone: String(wire.phone),
      status: String(wire.status),
      lng: (wire.lng as number | null) ?? null,
      lat: (wire.lat as number | null) ?? null,
      storeIds: (wire.storeIds as number[] | null) ?? [],
      todayCount: Number(wire.todayCount ?? 0),
      openDeliveries: openBy.get(wire.id) ?? 0,
    };
  });
  const num = (v: unknown) => (v == null ? null : Number(v));
  return {
    waiting: rows.map((r) => {
      const ranked = rankRunners(
        { storeId: Number(r.storeId), lng: num(r.storeLng), lat: num(r.storeLat) },
        runners,
      ).slice(0, 5);
      return {
        deliveryId: Number(r.deliveryId),
        deliveryStatus: String(r.deliveryStatus),
        runnerId: num(r.runnerId),
        feeFen: Number(r.feeFen ?? 0),
        requestedAt: new Date(Number(r.requestedAt)).toISOString(),
        order: {
          id: Number(r.orderId),
          orderNo: String(r.orderNo),
          status: String(r.orderStatus),
          address: r.address ?? null,
          payableFen: Number(r.payableFen ?? 0),
          storeId: Number(r.storeId),
          storeName: String(r.storeName),
        },
        suggestion: ranked[0] ?? null,
        candidates: ranked,
      };
    }),
    runners,
  };
}
