/**
 * Points: 100 points = ¥1 (DOMAIN.md), i.e. one point is one fen, and only whole fen are paid
 * with points. Spent points are capped
 *   - at the platform's share of the order: floor(share % × the order before points, packing and
 *     delivery included — "at most a configured share of the order"), and
 *   - at the goods left to pay, since points are spread over the goods lines like every other
 *     discount (packing and delivery are never discounted, see price-order.ts).
 */
import { formatMoney } from '../format/money';
import type { PointsInput, PointsLimit, PointsOutcome } from './types';

/** 100 points = ¥1. */
export const POINTS_PER_YUAN = 100;
const POINTS_PER_FEN = POINTS_PER_YUAN / 100;

export function pointsOutcome(
  points: PointsInput,
  orderBeforePointsFen: number,
  goodsLeftFen: number,
): PointsOutcome {
  const wantedFen = Math.floor(points.spend / POINTS_PER_FEN);
  const shareCapFen = Math.floor((orderBeforePointsFen * points.maxSharePercent) / 100);
  const fen = Math.min(wantedFen, shareCapFen, goodsLeftFen);
  const used = fen * POINTS_PER_FEN;
  let limitedBy: PointsLimit | null = null;
  if (fen < wantedFen) limitedBy = shareCapFen <= goodsLeftFen ? 'share' : 'remaining';
  const spent = `本单使用 ${used} 积分，抵扣 ${formatMoney(fen)}`;
  let message: string;
  if (limitedBy === 'share') {
    message = `积分最多抵扣订单金额的 ${points.maxSharePercent}%，${spent}`;
  } else if (limitedBy === 'remaining') {
    message = `积分抵扣不超过商品应付金额，${spent}`;
  } else {
    message = spent;
  }
  return { requested: points.spend, used, fen, limitedBy, message };
}
