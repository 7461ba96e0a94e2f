/**
 * A cart as the client sends it (core's `orderDraftSchema`) → core's `priceOrder` input,
 * resolved from the database: the goods' or SKUs' prices, the store's fees by fulfilment, the
 * customer's member discount, the store's running 满减 activities (the best one is applied) and
 * the points the customer offers (capped at what they hold and the platform's share). The client's
 * figures are never read: only ids and quantities.
 */
import {
  type CartLine,
  type CouponInput,
  type FieldDef,
  fieldText,
  formatMoney,
  type OrderDraft,
  orderFees,
  type PriceBreakdown,
  priceWithBestActivity,
  type ReductionActivity,
} from '@wanxiang/core';
import { readTogether } from '../../db/together.js';
import { conflict, invalidInput } from '../../http/envelope.js';
import type { AnyDb } from '../../resources/extensions.js';
import { type DbRow, modelOf, type WireRow } from '../../resources/storage.js';
import { couponForOrder } from '../marketing/order-coupons.js';
import { platformConfigFrom, platformConfigQuery } from '../platform-config/store.js';
import { def, rowsByIdQuery, wireRowsById } from './rows.js';
import { orderSettingsFrom } from './settings.js';

export interface PricedCart {
  store: WireRow;
  /** The cart's lines as priced, with the goods' names (what the order keeps as items). */
  lines: (CartLine & { name: string })[];
  priced: PriceBreakdown;
  /** The 满减 activity applied, or null. */
  discountId: number | null;
}

interface Sku {
  name: string;
  priceFen: number;
  stock: number;
}

/** The enabled 满减 activities running at `now` (any store's: `runningFor` keeps a store's). */
function activitiesQuery(trx: AnyDb, now: number) {
  return trx
    .selectFrom(modelOf(def('discounts')).table)
    .select(['id', 'tiers', 'store_ids', 'stackable_with_coupon'])
    .where('status', '=', 'enabled')
    .where('start_at', '<=', now)
    .where('end_at', '>=', now)
    .orderBy('id');
}

/** Of the running activities, the store's (an activity without stores is for all). */
function runningFor(rows: readonly DbRow[], storeId: number) {
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return rows
    .map((r) => ({
      id: Number(r.id),
      storeIds: (parse(r.store_ids) ?? []) as number[],
      activity: {
        tiers: parse(r.tiers) as ReductionActivity['tiers'],
        stackableWithCoupon: !!r.stackable_with_coupon,
      },
    }))
    .filter((a) => a.storeIds.length === 0 || a.storeIds.includes(storeId));
}

/** The customer's points and their level's discount (a level deleted or never set: none). */
function customerQuery(trx: AnyDb, userId: number) {
  return trx
    .selectFrom('users as u')
    .leftJoin(`${modelOf(def('memberLevels')).table} as l`, 'l.id', 'u.member_level_id')
    .select(['u.points as points', 'l.discount_rate as discountRate'])
    .where('u.id', '=', userId);
}

export async function priceCart(
  trx: AnyDb,
  draft: OrderDraft,
  now: number,
  options: { forOrder: boolean },
): Promise<PricedCart> {
  // Everything the price depends on that the draft names directly, read at once: one round trip
  // on PostgreSQL instead of five (db/together.ts). The coupon, when there is one, is read after:
  // its eligibility depends on the lines found here.
  const [configRows, storeRows, goodsRows, customerRows, activityRows] = await readTogether(trx, [
    platformConfigQuery(trx),
    rowsByIdQuery(trx, 'stores', [draft.storeId]),
    rowsByIdQuery(
      trx,
      'goods',
      draft.items.map((l) => l.goodsId),
    ),
    draft.userId ? customerQuery(trx, draft.userId) : null,
    activitiesQuery(trx, now),
  ]);
  const settings = orderSettingsFrom(platformConfigFrom(configRows));
  const store = wireRowsById('stores', storeRows as DbRow[]).get(draft.storeId);
  if (!store) throw invalidInput({ storeId: '所选的门店不存在' });
  if (options.forOrder && store.status !== 'open')
    throw conflict(`门店${fieldText(def('stores').fields.status as FieldDef, store.status)}，暂不接单`);

  const goods = wireRowsById('goods', goodsRows as DbRow[]);
  const fields: Record<string, string> = {};
  const lines: PricedCart['lines'] = [];
  draft.items.forEach((item, i) => {
    const good = goods.get(item.goodsId);
    if (!good || good.storeId !== draft.storeId) {
      fields[`items.${i}.goodsId`] = good ? `商品「${good.name}」不属于该门店` : '所选的商品不存在';
      return;
    }
    if (good.status !== 'onSale') {
      fields[`items.${i}.goodsId`] = `商品「${good.name}」已下架`;
      return;
    }
    const specs = (good.specs ?? []) as Sku[];
    let unitPriceFen = Number(good.priceFen);
    let sku: string | null = null;
    if (item.sku) {
      const spec = specs.find((s) => s.name === item.sku);
      if (!spec) {
        fields[`items.${i}.sku`] = `商品「${good.name}」没有规格「${item.sku}」`;
        return;
      }
      unitPriceFen = spec.priceFen;
      sku = spec.name;
    } else if (specs.length > 0) {
      fields[`items.${i}.sku`] = `请选择商品「${good.name}」的规格`;
      return;
    }
    lines.push({ goodsId: item.goodsId, name: String(good.name), sku, qty: item.qty, unitPriceFen });
  });
  if (Object.keys(fields).length > 0) throw invalidInput(fields);

  const fees = orderFees(draft.fulfilment, {
    packingFeeFen: Number(store.packingFeeFen ?? 0),
    deliveryFeeFen: Number(store.deliveryFeeFen ?? 0),
  });

  let memberDiscountRate = 100;
  let pointsHeld = 0;
  if (draft.userId) {
    const user = customerRows[0];
    if (!user) throw invalidInput({ userId: '所选的顾客不存在' });
    pointsHeld = Number(user.points ?? 0);
    if (user.discountRate != null) memberDiscountRate = Number(user.discountRate);
  }
  const offered = draft.points ?? 0;
  if (offered > 0 && !draft.userId) throw invalidInput({ points: '使用积分须选择顾客' });
  if (offered > pointsHeld) throw invalidInput({ points: `顾客只有 ${pointsHeld} 积分` });

  // The coupon the customer chose: theirs, unused, valid now, for this store and these goods
  // (core's couponEligibility); its threshold and stacking are pricing's to decide below.
  let coupon: CouponInput | null = null;
  if (draft.couponId) {
    if (!draft.userId) throw invalidInput({ couponId: '使用优惠券须选择顾客' });
    const eligible = await couponForOrder(trx, {
      userCouponId: draft.couponId,
      userId: draft.userId,
      storeId: draft.storeId,
      goodsIds: lines.map((l) => l.goodsId),
      now,
    });
    if (!eligible.ok) throw invalidInput({ couponId: eligible.message }, eligible.message);
    coupon = eligible.coupon;
  }

  const activities = runningFor(activityRows as DbRow[], draft.storeId);
  const { priced, activityIndex } = priceWithBestActivity(
    {
      lines,
      ...fees,
      memberDiscountRate,
      coupon,
      points: offered > 0 ? { spend: offered, maxSharePercent: settings.pointsMaxSharePercent } : null,
    },
    activities.map((a) => a.activity),
  );
  // An order is not placed with a coupon pricing would not apply (the preview shows why).
  if (options.forOrder && priced.coupon && !priced.coupon.applied)
    throw invalidInput({ couponId: priced.coupon.message }, priced.coupon.message);
  if (options.forOrder && draft.fulfilment === 'delivery') {
    const min = Number(store.minOrderFen ?? 0);
    if (priced.goodsFen < min)
      throw conflict(`未达起送价：商品金额 ${formatMoney(priced.goodsFen)}，起送价 ${formatMoney(min)}`);
  }
  return {
    store,
    lines,
    priced,
    discountId: activityIndex === null ? null : (activities[activityIndex]?.id ?? null),
  };
}
