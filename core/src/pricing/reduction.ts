/**
 * 满减: the tier an order gets and the next one within reach. Tiers are taken as given (the
 * registry keeps them sorted, with each reduction below its threshold — json-shapes.ts), but
 * nothing here relies on it: the best tier is the highest reduction whose threshold the goods
 * reach, wherever it is listed, and a reduction is never more than the goods.
 */
import { formatMoney } from '../format/money';
import { amountPayingAtLeast, payAtRate } from './rates';
import type { ReductionOutcome, ReductionTier } from './types';

/** The highest reduction whose threshold `goodsFen` reaches (first listed on a tie), or null. */
export function bestTier(tiers: readonly ReductionTier[], goodsFen: number): ReductionTier | null {
  let best: ReductionTier | null = null;
  for (const tier of tiers) {
    if (tier.reduceFen > 0 && tier.thresholdFen <= goodsFen && tier.reduceFen > (best?.reduceFen ?? 0)) {
      best = tier;
    }
  }
  return best;
}

/** The cheapest-to-reach tier that would reduce more than `currentReduceFen` (on a tie, the larger). */
export function nextTier(
  tiers: readonly ReductionTier[],
  goodsFen: number,
  currentReduceFen: number,
): ReductionTier | null {
  let next: ReductionTier | null = null;
  for (const tier of tiers) {
    if (tier.thresholdFen <= goodsFen || tier.reduceFen <= currentReduceFen) continue;
    if (
      next === null ||
      tier.thresholdFen < next.thresholdFen ||
      (tier.thresholdFen === next.thresholdFen && tier.reduceFen > next.reduceFen)
    ) {
      next = tier;
    }
  }
  return next;
}

/**
 * The 满减 the goods get (checked on the goods after member discount), and what the customer is
 * told about it. `next.shortFen` is in list prices: buy that much more and the goods after
 * member discount reach the next tier.
 */
export function reductionOutcome(
  tiers: readonly ReductionTier[],
  /** Goods at list prices, and the member rate that turns them into what the tiers are checked on. */
  listGoodsFen: number,
  memberRate: number,
): { reduceFen: number; outcome: ReductionOutcome } {
  const goodsFen = payAtRate(listGoodsFen, memberRate);
  const tier = bestTier(tiers, goodsFen);
  const reduceFen = tier ? Math.min(tier.reduceFen, goodsFen) : 0;
  const upcoming = nextTier(tiers, goodsFen, reduceFen);
  const shortFen = upcoming ? amountPayingAtLeast(upcoming.thresholdFen, memberRate) - listGoodsFen : 0;
  const next =
    upcoming && Number.isFinite(shortFen)
      ? { thresholdFen: upcoming.thresholdFen, reduceFen: upcoming.reduceFen, shortFen }
      : null;
  let message: string;
  if (tier && next) {
    message = `已享${tierText(tier)}，再买 ${formatMoney(next.shortFen)} 可减 ${formatMoney(next.reduceFen)}`;
  } else if (tier) {
    message = `已享${tierText(tier)}`;
  } else if (next) {
    message = `再买 ${formatMoney(next.shortFen)} 可享${tierText(next)}`;
  } else {
    message = '本单不满足满减条件';
  }
  const applied = tier ? { thresholdFen: tier.thresholdFen, reduceFen: tier.reduceFen } : null;
  return { reduceFen, outcome: { tier: applied, next, message } };
}

function tierText(tier: ReductionTier): string {
  return `满 ${formatMoney(tier.thresholdFen)} 减 ${formatMoney(tier.reduceFen)}`;
}
