/**
 * A store may be deleted only when nothing live depends on it: no goods on sale and no order
 * that has not reached its end (core's order machine: `lifecycleOf(orders).final`, completed or
 * cancelled). The refusal says what blocks it, counted in the delete's transaction:
 * 门店还有 3 个在售商品、2 个未完成订单，不能删除. Decision: categories, printers and finished
 * orders do not block — a store is soft-deleted, so they keep pointing at it for history.
 */
import { getResource, lifecycleOf } from '@wanxiang/core';
import { sql } from 'kysely';
import { conflict } from '../../http/envelope.js';
import type { ResourceHooks } from '../../resources/extensions.js';
import { modelOf } from '../../resources/storage.js';

const goods = modelOf(getResource('goods'));
const orders = modelOf(getResource('orders'));

export const storeHooks: ResourceHooks = {
  async beforeDelete(ctx, id) {
    const finished = lifecycleOf(getResource('orders')).final;
    const onSale = await ctx.trx
      .selectFrom(goods.table)
      .select(sql<number>`count(*)`.as('n'))
      .where(sql.ref('store_id'), '=', id)
      .where(sql.ref('status'), '=', 'onSale')
      .where(sql.ref('deleted_at'), 'is', null)
      .executeTakeFirstOrThrow();
    const open = await ctx.trx
      .selectFrom(orders.table)
      .select(sql<number>`count(*)`.as('n'))
      .where(sql.ref('store_id'), '=', id)
      .where(sql.ref('status'), 'not in', [...finished])
      .executeTakeFirstOrThrow();
    const blockers = [
      ...(Number(onSale.n) > 0 ? [`${Number(onSale.n)} 个在售商品`] : []),
      ...(Number(open.n) > 0 ? [`${Number(open.n)} 个未完成订单`] : []),
    ];
    if (blockers.length > 0) throw conflict(`门店还有 ${blockers.join('、')}，不能删除`);
  },
};
