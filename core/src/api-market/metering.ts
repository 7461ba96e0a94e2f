/**
 * Metering of gateway calls: each call's outcome, the daily roll-up it adds to, and the stats
 * series the admin charts read (`GET /api/admin/marketApis/{id}/stats`, `…/apiKeys/{id}/stats`).
 * Days are China days, as every date of the product.
 */
import { CHINA_OFFSET_MS, chinaDayOf, chinaDayStart, DAY_MS } from '../format/date';

export const CALL_OUTCOMES = ['ok', 'error', 'rateLimited', 'noQuota'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** The method an API accepts (marketApis.method) against the request's: HEAD goes with GET. */
export function methodAccepted(apiMethod: string, requestMethod: string): boolean {
  const m = requestMethod.toUpperCase();
  if (apiMethod === 'ANY') return true;
  if (apiMethod === 'GET') return m === 'GET' || m === 'HEAD';
  return m === apiMethod;
}

/** A call's outcome from the HTTP status it answered (the gateway's own refusals aside). */
export function outcomeOf(httpStatus: number, refusedFor?: 'rate' | 'quota'): CallOutcome {
  if (refusedFor === 'rate') return 'rateLimited';
  if (refusedFor === 'quota') return 'noQuota';
  return httpStatus >= 200 && httpStatus < 400 ? 'ok' : 'error';
}

/** `2025-01-31` — the China day of an instant. */
export function chinaDayKey(at: number): string {
  return new Date(at + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** One day's counters, as the roll-up table holds them. */
export interface CallDayCounts {
  calls: number;
  ok: number;
  errors: number;
  rateLimited: number;
  noQuota: number;
  latencySum: number;
  latencyMax: number;
}

/** What one call adds to its day's row. */
export function dayDelta(outcome: CallOutcome, latencyMs: number): CallDayCounts {
  const latency = Math.max(0, Math.round(latencyMs));
  return {
    calls: 1,
    ok: outcome === 'ok' ? 1 : 0,
    errors: outcome === 'error' ? 1 : 0,
    rateLimited: outcome === 'rateLimited' ? 1 : 0,
    noQuota: outcome === 'noQuota' ? 1 : 0,
    latencySum: latency,
    latencyMax: latency,
  };
}

export interface CallStatsDay {
  day: string;
  calls: number;
  ok: number;
  errors: number;
  rateLimited: number;
  noQuota: number;
  /** Mean latency of the day's calls, whole ms; 0 on a day without calls. */
  latencyAvgMs: number;
  latencyMaxMs: number;
}

export const STATS_MAX_DAYS = 90;
export const STATS_DEFAULT_DAYS = 30;

/** `?days=` → 1..90 (30 when absent), or a Chinese message for the 422. */
export function parseStatsDays(raw: unknown): { days: number } | { error: string } {
  if (raw === undefined || raw === '') return { days: STATS_DEFAULT_DAYS };
  const text = String(raw);
  const n = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > STATS_MAX_DAYS) {
    return { error: `天数应为 1 到 ${STATS_MAX_DAYS} 之间的整数` };
  }
  return { days: n };
}

/** The first instant (epoch ms) of the oldest of the last `days` China days, today included. */
export function statsFrom(now: number, days: number): number {
  return chinaDayStart(chinaDayOf(now) - days + 1);
}

/**
 * The last `days` China days up to today, oldest first, every day present: rows (several per day
 * allowed — one per key or per API — they are added) keyed by their day's first instant.
 */
export function statsSeries(
  rows: readonly ({ dayStart: number } & CallDayCounts)[],
  now: number,
  days: number,
): CallStatsDay[] {
  const first = chinaDayOf(now) - days + 1;
  const sums = new Map<number, CallDayCounts>();
  for (const r of rows) {
    const d = chinaDayOf(r.dayStart);
    const s = sums.get(d);
    if (!s) sums.set(d, { ...r });
    else {
      s.calls += r.calls;
      s.ok += r.ok;
      s.errors += r.errors;
      s.rateLimited += r.rateLimited;
      s.noQuota += r.noQuota;
      s.latencySum += r.latencySum;
      s.latencyMax = Math.max(s.latencyMax, r.latencyMax);
    }
  }
  const out: CallStatsDay[] = [];
  for (let d = first; d < first + days; d++) {
    const s = sums.get(d);
    out.push({
      day: chinaDayKey(d * DAY_MS - CHINA_OFFSET_MS),
      calls: s?.calls ?? 0,
      ok: s?.ok ?? 0,
      errors: s?.errors ?? 0,
      rateLimited: s?.rateLimited ?? 0,
      noQuota: s?.noQuota ?? 0,
      latencyAvgMs: s && s.calls > 0 ? Math.round(s.latencySum / s.calls) : 0,
      latencyMaxMs: s?.latencyMax ?? 0,
    });
  }
  return out;
}
