/**
 * Input checks of `priceOrder`. Decision: bad input THROWS a `PricingInputError`; it is not a
 * result. Every input is assembled by the caller's own code (the server resolves prices from
 * goods/SKUs and has validated the request body; the UI prices its own cart), so a negative,
 * fractional or non-numeric amount, or a qty below 1, is a bug or an unvalidated body — never a
 * business outcome to show a customer. Business refusals (a coupon that does not apply, points
 * capped) are not errors: they are in the breakdown, with a reason code and a message.
 * Either way bad input never yields NaN or a negative amount.
 */
import type { PriceInput } from './types';

/** The largest order the pricing takes: ¥10 000 000 000 (every product it forms stays exact). */
export const MAX_ORDER_FEN = 1_000_000_000_000;

export class PricingInputError extends Error {
  override readonly name = 'PricingInputError';
  constructor(
    /** Where in the input, e.g. `lines[2].qty`. */
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

function fen(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new PricingInputError(path, '金额须为不小于 0 的整数（分）');
  }
  if (value > MAX_ORDER_FEN) throw new PricingInputError(path, '金额超出可计价的范围');
  return value;
}

function count(value: unknown, path: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new PricingInputError(path, `须为不小于 ${min} 的整数`);
  }
  return value;
}

function percent(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100) {
    throw new PricingInputError(path, '须为 0 到 100 之间的整数（%）');
  }
  return value;
}

/** Throws a PricingInputError at the first bad value; returns the goods total (Σ qty × price). */
export function validatePriceInput(input: PriceInput): number {
  if (!Array.isArray(input.lines)) throw new PricingInputError('lines', '须为商品行的列表');
  let goods = 0;
  for (let i = 0; i < input.lines.length; i++) {
    const line = input.lines[i];
    const at = `lines[${i}]`;
    if (typeof line !== 'object' || line === null) throw new PricingInputError(at, '须为商品行');
    count(line.goodsId, `${at}.goodsId`, 1);
    if (line.sku !== undefined && line.sku !== null && typeof line.sku !== 'string') {
      throw new PricingInputError(`${at}.sku`, '规格须为文本');
    }
    const qty = count(line.qty, `${at}.qty`, 1);
    const unit = fen(line.unitPriceFen, `${at}.unitPriceFen`);
    goods += fen(qty * unit, `${at}.amountFen`);
  }
  const total = goods + fen(input.packingFen, 'packingFen') + fen(input.deliveryFen, 'deliveryFen');
  if (total > MAX_ORDER_FEN) throw new PricingInputError('lines', '订单金额超出可计价的范围');
  if (input.memberDiscountRate !== undefined) percent(input.memberDiscountRate, 'memberDiscountRate');
  const activity = input.activity;
  if (activity) {
    if (!Array.isArray(activity.tiers)) throw new PricingInputError('activity.tiers', '须为满减档位的列表');
    activity.tiers.forEach((tier, i) => {
      fen(tier?.thresholdFen, `activity.tiers[${i}].thresholdFen`);
      fen(tier?.reduceFen, `activity.tiers[${i}].reduceFen`);
    });
    if (typeof activity.stackableWithCoupon !== 'boolean') {
      throw new PricingInputError('activity.stackableWithCoupon', '须为 true 或 false');
    }
  }
  const coupon = input.coupon;
  if (coupon) {
    if (coupon.thresholdFen !== undefined) fen(coupon.thresholdFen, 'coupon.thresholdFen');
    if (coupon.kind === 'cash') fen(coupon.valueFen, 'coupon.valueFen');
    else if (coupon.kind === 'discount') percent(coupon.rate, 'coupon.rate');
    else if (coupon.kind === 'item') {
      count(coupon.goodsId, 'coupon.goodsId', 1);
      fen(coupon.valueFen, 'coupon.valueFen');
    } else throw new PricingInputError('coupon.kind', '券类型须为 cash、discount 或 item');
  }
  if (input.points) {
    count(input.points.spend, 'points.spend', 0);
    percent(input.points.maxSharePercent, 'points.maxSharePercent');
  }
  return goods;
}
