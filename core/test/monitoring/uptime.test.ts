/** Roll-ups: merging hourly roll-ups equals rolling up every heartbeat; percentiles within their bucket. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addHeartbeat,
  emptyRollup,
  LATENCY_BUCKETS_MS,
  latencyPercentile,
  mergeRollups,
  type Rollup,
  uptimePercent,
} from '../../src/index';

const beat = fc.record({
  status: fc.constantFrom('up' as const, 'down' as const, 'pending' as const),
  latencyMs: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: null }),
});

const rollAll = (beats: { status: 'up' | 'down' | 'pending'; latencyMs: number | null }[]): Rollup =>
  beats.reduce(addHeartbeat, emptyRollup());

describe('roll-ups', () => {
  it('merging roll-ups of any split equals the roll-up of all heartbeats', () => {
    fc.assert(
      fc.property(fc.array(fc.array(beat, { maxLength: 30 }), { maxLength: 12 }), (hours) => {
        const merged = mergeRollups(hours.map(rollAll));
        expect(merged).toEqual(rollAll(hours.flat()));
      }),
    );
  });

  it('uptime counts pending as up; null without checks', () => {
    expect(uptimePercent(emptyRollup())).toBeNull();
    const r = rollAll([
      { status: 'up', latencyMs: 10 },
      { status: 'pending', latencyMs: null },
      { status: 'down', latencyMs: null },
      { status: 'down', latencyMs: null },
    ]);
    expect(uptimePercent(r)).toBe(50);
  });

  it('a percentile lies in the bucket of the true percentile and within [min, max]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 100 }),
        (latencies, p) => {
          const r = rollAll(latencies.map((latencyMs) => ({ status: 'up' as const, latencyMs })));
          const sorted = [...latencies].sort((a, b) => a - b);
          const exact = sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] as number;
          const got = latencyPercentile(r, p) as number;
          const i = LATENCY_BUCKETS_MS.findIndex((b) => exact <= b);
          const lower = i === 0 ? Number.NEGATIVE_INFINITY : (LATENCY_BUCKETS_MS[i - 1] as number);
          expect(got).toBeGreaterThan(lower);
          expect(got).toBeLessThanOrEqual(LATENCY_BUCKETS_MS[i] as number);
          expect(got).toBeGreaterThanOrEqual(sorted[0] as number);
          expect(got).toBeLessThanOrEqual(sorted[sorted.length - 1] as number);
        },
      ),
    );
  });

  it('no latency, no percentile', () => {
    expect(latencyPercentile(rollAll([{ status: 'down', latencyMs: null }]), 95)).toBeNull();
  });
});
