/**
 * What `priceOrder` takes and gives (DOMAIN.md "Pricing (pure, in core)"; API.md
 * `POST /api/admin/orders/price`). Plain data, integer fen throughout; the caller resolves
 * prices (goods.priceFen or the chosen SKU's priceFen), the member level, the store's 满减
 * activity, the user's coupon and the platform's points share before calling.
 */

/** One cart line as the caller resolved it. */
export interface CartLine {
  goodsId: number;
  /** The chosen spec (SKU name), or none. */
  sku?: string | null;
  /** Whole units, at least 1. */
  qty: number;
  unitPriceFen: number;
}

/** One 满减 tier: goods reaching `thresholdFen` are reduced by `reduceFen`. */
export interface ReductionTier {
  thresholdFen: number;
  reduceFen: number;
}

/** The store's applicable 满减 activity (discounts: tiers, stackableWithCoupon). */
export interface ReductionActivity {
  tiers: readonly ReductionTier[];
  stackableWithCoupon: boolean;
}

/** The one coupon the user chose (couponTemplates). `thresholdFen` absent = 0 (无门槛). */
export type CouponInput =
  /** 代金券: `valueFen` off the goods. */
  | { kind: 'cash'; valueFen: number; thresholdFen?: number }
  /** 折扣券: pay `rate` % of the goods (85 = 85 折). */
  | { kind: 'discount'; rate: number; thresholdFen?: number }
  /** 单品券: `valueFen` off the lines of `goodsId` (once an order, not once a unit). */
  | { kind: 'item'; goodsId: number; valueFen: number; thresholdFen?: number };

export type CouponKind = CouponInput['kind'];

/** Points the user offers and the platform's cap on them. */
export interface PointsInput {
  /** Whole points the user wants to spend (the caller has capped them at the user's balance). */
  spend: number;
  /** At most this percent of the order (before points) may be paid with points, e.g. 50. */
  maxSharePercent: number;
}

export interface PriceInput {
  lines: readonly CartLine[];
  /** 打包费 (the caller decides it from the store and the fulfilment: none for dine-in). */
  packingFen: number;
  /** 配送费 (none for pickup and dine-in). */
  deliveryFen: number;
  /** The member level's discountRate, in percent (95 = 95 折); absent = 100, no discount. */
  memberDiscountRate?: number;
  /** The store's applicable 满减 activity, or none. */
  activity?: ReductionActivity | null;
  /** One coupon, or none. */
  coupon?: CouponInput | null;
  /** Points to spend, or none. */
  points?: PointsInput | null;
}

/**
 * One priced line. Every discount of the order is spread over the goods lines (never over packing
 * or delivery), so `payableFen` is what this line cost the customer in money and is what a refund
 * of the whole line pays back; `pointsFen` is what goes back to the user as points.
 */
export interface PricedLine {
  goodsId: number;
  sku: string | null;
  qty: number;
  unitPriceFen: number;
  /** qty × unitPriceFen. */
  amountFen: number;
  /** This line's share of the member discount. */
  memberFen: number;
  /** This line's share of the 满减 reduction (the order's `discountFen`). */
  reduceFen: number;
  /** This line's share of the coupon. */
  couponFen: number;
  /** This line's share of the points (in fen; as many points as fen). */
  pointsFen: number;
  /**
   * Every discount on this line: memberFen + reduceFen + couponFen + pointsFen (API.md's line
   * `discountFen`; note the order's own `discountFen` is the 满减 alone, as in the orders table).
   */
  discountFen: number;
  /** amountFen − discountFen, never negative. */
  payableFen: number;
}

/** Why a coupon the user chose was not applied (machine-readable; `message` says it in Chinese). */
export type CouponRefusal =
  /** The 满减 that applies to this order is not stackable with coupons. */
  | 'not_stackable'
  /** The goods after member discount and 满减 are below the coupon's threshold. */
  | 'below_threshold'
  /** An item coupon's goods are not in the cart. */
  | 'item_not_in_cart'
  /** Nothing is left to discount (the goods it would apply to already cost 0). */
  | 'nothing_to_discount';

export type CouponOutcome =
  | { applied: true; kind: CouponKind; amountFen: number; message: string }
  | { applied: false; kind: CouponKind; reason: CouponRefusal; message: string };

export interface ReductionOutcome {
  /** The tier applied (the highest reduction whose threshold the goods reach), or none. */
  tier: ReductionTier | null;
  /**
   * The next better tier and how much more goods, at list prices, reach it (the tiers are checked
   * after the member discount), for "再买 ¥3.00 可减 ¥10.00".
   */
  next: (ReductionTier & { shortFen: number }) | null;
  message: string;
}

/** What limited the points: the platform's share, or the goods left to pay. */
export type PointsLimit = 'share' | 'remaining';

export interface PointsOutcome {
  /** Points offered. */
  requested: number;
  /** Points spent (= the order's pointsUsed). */
  used: number;
  /** Fen they paid (= the order's pointsFen). */
  fen: number;
  /** Why fewer were spent than offered, or null when all were. */
  limitedBy: PointsLimit | null;
  message: string;
}

/**
 * The breakdown (API.md): payableFen = goodsFen − memberFen + packingFen + deliveryFen
 * − discountFen − couponFen − pointsFen, and also = Σ lines' payableFen + packingFen + deliveryFen.
 */
export interface PriceBreakdown {
  lines: PricedLine[];
  /** Σ qty × unitPriceFen, before any discount. */
  goodsFen: number;
  /** The member discount on the goods. */
  memberFen: number;
  packingFen: number;
  deliveryFen: number;
  /** 满减 (the orders table's discountFen). */
  discountFen: number;
  couponFen: number;
  pointsFen: number;
  pointsUsed: number;
  payableFen: number;
  /** The 满减 outcome, or null when no activity was given. */
  reduction: ReductionOutcome | null;
  /** The coupon outcome, or null when no coupon was given. */
  coupon: CouponOutcome | null;
  /** The points outcome, or null when no points were offered. */
  points: PointsOutcome | null;
}
