/**
 * Roll-up arithmetic for monitor heartbeats. A roll-up summarises the checks of one job over one
 * hour or one day: counts of up and down, latency sum/count/min/max, and a histogram of
 * latencies over fixed buckets. Roll-ups merge by adding, so 30-day uptime is a sum of 30 daily
 * rows (one indexed read) instead of a scan of 43 200 heartbeats, and percentiles come from the
 * merged histogram, exact to within their bucket.
 *
 * `pending` counts as up for uptime, as Uptime Kuma does: a pending check is a failure still
 * being confirmed by retries, and counting it down would report outages that never were.
 */

/** Upper bounds (ms, inclusive) of the latency buckets, roughly logarithmic; the last is open. */
export const LATENCY_BUCKETS_MS: readonly number[] = [
  5,
  10,
  20,
  35,
  50,
  75,
  100,
  150,
  200,
  300,
  400,
  500,
  750,
  1000,
  1500,
  2000,
  3000,
  5000,
  7500,
  10_000,
  20_000,
  30_000,
  60_000,
  Number.POSITIVE_INFINITY,
];

export interface Rollup {
  up: number;
  down: number;
  latencySum: number;
  latencyCount: number;
  /** Smallest latency seen; null while no latency was recorded. */
  latencyMin: number | null;
  latencyMax: number | null;
  /** Counts per LATENCY_BUCKETS_MS bucket (same length). */
  buckets: number[];
}

export interface HeartbeatFacts {
  status: 'up' | 'down' | 'pending';
  /** Null when the check measured none (e.g. nothing connected). */
  latencyMs: number | null;
}

export function emptyRollup(): Rollup {
  return {
    up: 0,
    down: 0,
    latencySum: 0,
    latencyCount: 0,
    latencyMin: null,
    latencyMax: null,
    buckets: LATENCY_BUCKETS_MS.map(() => 0),
  };
}

/** The index of the bucket a latency falls in. */
export function bucketOf(latencyMs: number): number {
  const i = LATENCY_BUCKETS_MS.findIndex((bound) => latencyMs <= bound);
  return i === -1 ? LATENCY_BUCKETS_MS.length - 1 : i;
}

/** A new roll-up with one more heartbeat (the input is not changed). */
export function addHeartbeat(r: Rollup, beat: HeartbeatFacts): Rollup {
  const next: Rollup = { ...r, buckets: [...r.buckets] };
  if (beat.status === 'down') next.down += 1;
  else next.up += 1;
  if (beat.latencyMs !== null && Number.isFinite(beat.latencyMs)) {
    const ms = beat.latencyMs;
    next.latencySum += ms;
    next.latencyCount += 1;
    next.latencyMin = next.latencyMin === null ? ms : Math.min(next.latencyMin, ms);
    next.latencyMax = next.latencyMax === null ? ms : Math.max(next.latencyMax, ms);
    const i = bucketOf(ms);
    next.buckets[i] = (next.buckets[i] ?? 0) + 1;
  }
  return next;
}

/** One heartbeat as a roll-up of its own (what the database upsert adds to the stored row). */
export function rollupOf(beat: HeartbeatFacts): Rollup {
  return addHeartbeat(emptyRollup(), beat);
}

const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** The roll-up of all the heartbeats of the given roll-ups. */
export function mergeRollups(rs: readonly Rollup[]): Rollup {
  const out = emptyRollup();
  for (const r of rs) {
    out.up += r.up;
    out.down += r.down;
    out.latencySum += r.latencySum;
    out.latencyCount += r.latencyCount;
    out.latencyMin = minOf(out.latencyMin, r.latencyMin);
    out.latencyMax = maxOf(out.latencyMax, r.latencyMax);
    for (let i = 0; i < out.buckets.length; i++) out.buckets[i] = (out.buckets[i] ?? 0) + (r.buckets[i] ?? 0);
  }
  return out;
}

/** Uptime in percent (0–100), null when there were no checks. */
export function uptimePercent(r: Rollup): number | null {
  const total = r.up + r.down;
  return total === 0 ? null : (r.up / total) * 100;
}

/** Mean latency in ms, null when none was recorded. */
export function averageLatency(r: Rollup): number | null {
  return r.latencyCount === 0 ? null : r.latencySum / r.latencyCount;
}

/**
 * The p-th percentile (0 < p ≤ 100) of latency: the upper bound of the bucket holding it,
 * clamped to [min, max] so it never lies outside what was measured. Null when none was recorded.
 */
export function latencyPercentile(r: Rollup, p: number): number | null {
  if (r.latencyCount === 0 || r.latencyMin === null || r.latencyMax === null) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * r.latencyCount));
  let seen = 0;
  for (let i = 0; i < r.buckets.length; i++) {
    seen += r.buckets[i] ?? 0;
    if (seen >= rank) {
      const bound = LATENCY_BUCKETS_MS[i] ?? Number.POSITIVE_INFINITY;
      return Math.min(Math.max(bound, r.latencyMin), r.latencyMax);
    }
  }
  return r.latencyMax;
}
