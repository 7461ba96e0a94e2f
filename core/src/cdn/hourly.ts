/**
 * Hourly usage of a CDN domain from its access-log entries: requests, bytes, cache hits and
 * misses, status classes. An hour is stored as the epoch ms of its UTC start; China is UTC+8
 * all year with no half-hour offset, so the UTC hour is also the China hour and only its label
 * is written in China time (`2025-01-01 16:00`).
 */
import { CHINA_OFFSET_MS } from '../format/date';
import { type AccessLogEntry, CACHE_HITS } from './access-log';

export const HOUR_MS = 3_600_000;

/** The UTC hour start (epoch ms) of an instant. */
export function hourStartOf(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

/** `2025-01-01 16:00`: the hour in China time. */
export function chinaHourLabel(hourStart: number): string {
  return new Date(hourStart + CHINA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

export interface HourUsage {
  /** Epoch ms of the UTC hour start. */
  hour: number;
  requests: number;
  bytes: number;
  /** Requests with a cache status that served the cached copy (HIT, STALE, UPDATING, REVALIDATED). */
  hits: number;
  /** Requests with a cache status that went to the origin (MISS, EXPIRED, BYPASS). */
  misses: number;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
}

export function emptyHour(hour: number): HourUsage {
  return {
    hour,
    requests: 0,
    bytes: 0,
    hits: 0,
    misses: 0,
    status2xx: 0,
    status3xx: 0,
    status4xx: 0,
    status5xx: 0,
  };
}

/**
 * Hits over requests that had a cache verdict; null when none had one (a log without the cache
 * field, or only `-`): the ratio is unknown, not 0.
 */
export function hitRatioOf(hits: number, misses: number): number | null {
  const judged = hits + misses;
  return judged === 0 ? null : hits / judged;
}

/** Adds one entry to its hour. 1xx counts as a request in no class (there is no column for it). */
export function addEntry(usage: HourUsage, entry: AccessLogEntry): void {
  usage.requests += 1;
  usage.bytes += entry.bytes;
  const cls = Math.floor(entry.status / 100);
  if (cls === 2) usage.status2xx += 1;
  else if (cls === 3) usage.status3xx += 1;
  else if (cls === 4) usage.status4xx += 1;
  else if (cls === 5) usage.status5xx += 1;
  const cache = entry.cache;
  if (cache !== undefined && cache !== '-') {
    if (CACHE_HITS.has(cache)) usage.hits += 1;
    else usage.misses += 1;
  }
}

/** Sums two figures of the same hour (a re-aggregation, or a stored row plus an import). */
export function mergeHours(a: HourUsage, b: HourUsage): HourUsage {
  return {
    hour: a.hour,
    requests: a.requests + b.requests,
    bytes: a.bytes + b.bytes,
    hits: a.hits + b.hits,
    misses: a.misses + b.misses,
    status2xx: a.status2xx + b.status2xx,
    status3xx: a.status3xx + b.status3xx,
    status4xx: a.status4xx + b.status4xx,
    status5xx: a.status5xx + b.status5xx,
  };
}

/** Entries of one import grouped by hour; memory is one object per hour, whatever the lines. */
export class HourlyUsage {
  private readonly hours = new Map<number, HourUsage>();

  add(entry: AccessLogEntry): void {
    const hour = hourStartOf(entry.time);
    let usage = this.hours.get(hour);
    if (!usage) {
      usage = emptyHour(hour);
      this.hours.set(hour, usage);
    }
    addEntry(usage, entry);
  }

  /** The hours touched, oldest first. */
  list(): HourUsage[] {
    return [...this.hours.values()].sort((a, b) => a.hour - b.hour);
  }

  get size(): number {
    return this.hours.size;
  }
}

/** The periods the usage screen offers besides a custom range of days. */
export const USAGE_PERIODS = { '24h': '24 小时', '7d': '7 天', '30d': '30 天' } as const;
export type UsagePeriod = keyof typeof USAGE_PERIODS;
const PERIOD_HOURS: Readonly<Record<UsagePeriod, number>> = { '24h': 24, '7d': 168, '30d': 720 };

/** The last `period` of whole hours up to and including the current one: [from, to) in epoch ms. */
export function usagePeriodRange(period: UsagePeriod, now: number): { from: number; to: number } {
  const to = hourStartOf(now) + HOUR_MS;
  return { from: to - PERIOD_HOURS[period] * HOUR_MS, to };
}
