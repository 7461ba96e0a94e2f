/**
 * Spreading one order-level amount over the goods lines, pro rata, in whole fen (the largest
 * remainder method): each line first gets the whole fen of its exact share total × w / Σw, then
 * the fen still missing go one each to the lines with the largest remainders, ties to the earlier
 * line. So the shares add up to the total exactly, the result depends only on the input (same
 * cart, same shares), a line never gets more than its own weight (the total is at most Σw), and a
 * line of weight 0 gets nothing.
 */

/**
 * Shares of `total` over `weights` (non-negative integers, total ≤ Σ weights). Written into `out`
 * (same length as weights) to spare the hot path an allocation.
 */
export function spreadInto(total: number, weights: readonly number[], out: number[]): void {
  const n = weights.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i] as number;
  if (total <= 0 || sum <= 0) {
    for (let i = 0; i < n; i++) out[i] = 0;
    return;
  }
  if (total >= sum) {
    for (let i = 0; i < n; i++) out[i] = weights[i] as number;
    return;
  }
  // total × w must stay exact: plain numbers while total × Σw is a safe integer, BigInt beyond.
  if (total * sum > Number.MAX_SAFE_INTEGER) {
    spreadBig(total, weights, sum, out);
    return;
  }
  const remainders = new Array<number>(n);
  let given = 0;
  for (let i = 0; i < n; i++) {
    const product = total * (weights[i] as number);
    const whole = Math.floor(product / sum);
    out[i] = whole;
    remainders[i] = product - whole * sum;
    given += whole;
  }
  giveLeftovers(total - given, remainders, out);
}

function spreadBig(total: number, weights: readonly number[], sum: number, out: number[]): void {
  const n = weights.length;
  const bigTotal = BigInt(total);
  const bigSum = BigInt(sum);
  const remainders = new Array<number>(n);
  let given = 0;
  for (let i = 0; i < n; i++) {
    const product = bigTotal * BigInt(weights[i] as number);
    const whole = product / bigSum;
    out[i] = Number(whole);
    // A remainder is below Σw, itself a safe integer: compared as a plain number.
    remainders[i] = Number(product - whole * bigSum);
    given += out[i] as number;
  }
  giveLeftovers(total - given, remainders, out);
}

/** One fen each to the `left` lines with the largest remainders, ties to the earlier line. */
function giveLeftovers(left: number, remainders: number[], out: number[]): void {
  // `left` is below the number of lines with a non-zero remainder, so lines with none (weight 0,
  // or an exact share) never get one. Picking the largest `left` times is fine for carts (a few
  // dozen lines) and allocates nothing.
  for (let k = 0; k < left; k++) {
    let best = -1;
    let bestRemainder = 0;
    for (let i = 0; i < remainders.length; i++) {
      const r = remainders[i] as number;
      if (r > bestRemainder) {
        best = i;
        bestRemainder = r;
      }
    }
    if (best < 0) break;
    out[best] = (out[best] as number) + 1;
    remainders[best] = 0;
  }
}
