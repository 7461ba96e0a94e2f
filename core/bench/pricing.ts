/**
 * QUALITY.md / BENCHMARKS.md bar: pricing (core, pure) — a 20-line cart with 满减, coupon and
 * points ≤ 50 µs median. Prices the same kind of cart many times (member discount, a stackable
 * three-tier 满减, a cash coupon with a threshold, points capped by the share) and prints the
 * median per order beside the bar; exits non-zero when the bar is missed.
 *
 * Run: `npx tsx core/bench/pricing.ts` (ROUNDS=… BATCH=… to change the sample).
 */
import { type PriceInput, priceOrder } from '../src/index';

interface Env {
  process?: { env: Record<string, string | undefined>; exitCode?: number };
}
const env = (globalThis as Env).process?.env ?? {};
const ROUNDS = Number(env.ROUNDS ?? 2000);
const BATCH = Number(env.BATCH ?? 50);
const WARMUP = 20_000;
const BAR_US = 50;

/** A 20-line cart; `seed` moves prices a little so no two consecutive orders are the same. */
function cart(seed: number): PriceInput {
  const lines = Array.from({ length: 20 }, (_, i) => ({
    goodsId: i + 1,
    sku: i % 3 === 0 ? '大份' : null,
    qty: 1 + ((i + seed) % 4),
    unitPriceFen: 680 + ((i * 137 + seed * 31) % 2400),
  }));
  return {
    lines,
    packingFen: 200,
    deliveryFen: 500,
    memberDiscountRate: 95,
    activity: {
      tiers: [
        { thresholdFen: 3000, reduceFen: 500 },
        { thresholdFen: 6000, reduceFen: 1200 },
        { thresholdFen: 10000, reduceFen: 2500 },
      ],
      stackableWithCoupon: true,
    },
    coupon: { kind: 'cash', valueFen: 800, thresholdFen: 5000 },
    points: { spend: 3000 + seed, maxSharePercent: 50 },
  };
}

const inputs = Array.from({ length: 64 }, (_, i) => cart(i));
let sink = 0;
for (let i = 0; i < WARMUP; i++) sink += priceOrder(inputs[i % inputs.length] as PriceInput).payableFen;

// Timed in batches (a single call is close to the clock's resolution); per-order figure = batch / BATCH.
const perOrderUs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  for (let i = 0; i < BATCH; i++) {
    sink += priceOrder(inputs[(round * BATCH + i) % inputs.length] as PriceInput).payableFen;
  }
  perOrderUs.push(((performance.now() - t0) * 1000) / BATCH);
}
perOrderUs.sort((a, b) => a - b);
const at = (q: number) =>
  perOrderUs[Math.min(perOrderUs.length - 1, Math.floor(q * perOrderUs.length))] as number;
const median = at(0.5);
const ok = median <= BAR_US;

const check = priceOrder(cart(0));
console.log(
  `pricing: 20-line cart, member 95 折 + 满减 ${check.discountFen} + coupon ${check.couponFen} + points ${check.pointsFen} fen`,
);
console.log(`  ${ROUNDS} rounds × ${BATCH} orders (${ROUNDS * BATCH} orders after ${WARMUP} warm-up)`);
console.log(
  `  ${'median per order'.padEnd(40)} ${`${median.toFixed(2)} µs`.padStart(10)}   bar ≤ ${BAR_US} µs   ${ok ? 'ok' : 'MISS'}`,
);
console.log(
  `  ${'p95 of batches, per order'.padEnd(40)} ${`${at(0.95).toFixed(2)} µs`.padStart(10)}   (reported)`,
);
if (sink === -1) console.log('unreachable');
const proc = (globalThis as Env).process;
if (proc && !ok) proc.exitCode = 1;
