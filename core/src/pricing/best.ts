/**
 * When a store runs several 满减 activities at once, the customer gets the one that leaves the
 * least to pay (with the coupon and points they chose) — as 美团 applies "最优惠" automatically.
 * Ties go to the activity listed first, so the choice is stable.
 */
import { priceOrder } from './price-order';
import type { PriceBreakdown, PriceInput, ReductionActivity } from './types';

export function priceWithBestActivity(
  input: Omit<PriceInput, 'activity'>,
  activities: readonly ReductionActivity[],
): { priced: PriceBreakdown; activityIndex: number | null } {
  let best = { priced: priceOrder({ ...input, activity: null }), activityIndex: null as number | null };
  activities.forEach((activity, i) => {
    const priced = priceOrder({ ...input, activity });
    if (priced.payableFen < best.priced.payableFen) best = { priced, activityIndex: i };
  });
  return best;
}
