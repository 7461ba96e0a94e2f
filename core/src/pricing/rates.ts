/**
 * Paying a percentage of an amount in whole fen. Decision: the amount to pay is rounded half up
 * (四舍五入 to the fen, as a price tag would be), and the discount is what that leaves off:
 * 95 折 of ¥0.10 is ¥0.10 (9.5 fen → 10), of ¥0.30 is ¥0.29 (28.5 fen → 29). The same rule for
 * the member discount and for a 折扣券.
 */

/** round-half-up(amountFen × rate / 100), exact in integers (amountFen ≤ MAX_ORDER_FEN). */
export function payAtRate(amountFen: number, ratePercent: number): number {
  return Math.floor((amountFen * ratePercent * 2 + 100) / 200);
}

/** What `ratePercent` % takes off `amountFen`: amountFen − payAtRate(amountFen, ratePercent). */
export function discountAtRate(amountFen: number, ratePercent: number): number {
  return amountFen - payAtRate(amountFen, ratePercent);
}

/**
 * The least amount whose payAtRate reaches `payFen` (Infinity at rate 0: none does). Used to tell
 * a customer how much more to buy, at list prices, to reach a 满减 tier that is checked after the
 * member discount.
 */
export function amountPayingAtLeast(payFen: number, ratePercent: number): number {
  if (payFen <= 0) return 0;
  if (ratePercent === 0) return Number.POSITIVE_INFINITY;
  // payAtRate(x) ≥ payFen ⟺ 2·x·rate + 100 ≥ 200·payFen ⟺ x ≥ (100·payFen − 50) / rate.
  return Math.ceil((100 * payFen - 50) / ratePercent);
}

/** 85 → "85 折", 90 → "9 折" (how a rate is said in Chinese). */
export function rateText(ratePercent: number): string {
  return ratePercent % 10 === 0 ? `${ratePercent / 10} 折` : `${ratePercent} 折`;
}
