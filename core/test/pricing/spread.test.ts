import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadInto } from '../../src/index';

const spread = (total: number, weights: number[]) => {
  const out = new Array<number>(weights.length);
  spreadInto(total, weights, out);
  return out;
};

/** The largest remainder method in BigInt throughout, written the plain way, as a reference. */
function reference(total: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (total <= 0 || sum === 0n) return weights.map(() => 0);
  const t = BigInt(Math.min(total, Number(sum)));
  const whole = weights.map((w) => (t * BigInt(w)) / sum);
  const rest = weights.map((w, i) => ({ i, r: t * BigInt(w) - (whole[i] as bigint) * sum }));
  rest.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  let left = t - whole.reduce((s, x) => s + x, 0n);
  for (const { i } of rest) {
    if (left === 0n) break;
    whole[i] = (whole[i] as bigint) + 1n;
    left--;
  }
  return whole.map(Number);
}

describe('spreadInto (largest remainder)', () => {
  it('shares pro rata, leftovers to the largest remainders, ties to the earlier line', () => {
    expect(
      spread(
        100,
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1].map(
          (x) => x * 10,
        ),
      ),
    ).toEqual([...Array(10).fill(4), ...Array(20).fill(3)]);
    expect(spread(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(spread(10, [3600, 1500])).toEqual([7, 3]);
    expect(spread(5, [0, 10, 0, 10])).toEqual([0, 3, 0, 2]);
    expect(spread(0, [5, 5])).toEqual([0, 0]);
    expect(spread(7, [])).toEqual([]);
  });

  it('gives each line at most its weight and nothing to a line of weight 0', () => {
    expect(spread(10, [10, 0])).toEqual([10, 0]);
    expect(spread(3, [1, 1, 1, 0])).toEqual([1, 1, 1, 0]);
  });

  it('matches the BigInt reference, small and past 2^53', () => {
    const weights = fc.array(
      fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 400_000_000_000 })),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(weights, fc.double({ min: 0, max: 1, noNaN: true }), (w, f) => {
        const sum = w.reduce((s, x) => s + x, 0);
        const total = Math.floor(sum * f);
        const shares = spread(total, w);
        expect(shares).toEqual(reference(total, w));
        expect(shares.reduce((s, x) => s + x, 0)).toBe(total);
        expect(shares.every((s, i) => s <= (w[i] as number))).toBe(true);
      }),
    );
  });
});
