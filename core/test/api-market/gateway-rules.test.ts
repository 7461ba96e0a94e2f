import { describe, expect, it } from 'vitest';
import {
  chinaDayKey,
  dayDelta,
  methodAccepted,
  outcomeOf,
  parseStatsDays,
  quotaLeft,
  quotaMonthOf,
  quotaSources,
  rateLimitHeaders,
  rateWindowOf,
  retryAfterSeconds,
  statsFrom,
  statsSeries,
} from '../../src/index';

const at = (iso: string) => Date.parse(iso);

describe('quota: free first, then paid by soonest expiry', () => {
  const now = at('2025-03-10T00:00:00Z');
  const paid = [
    { id: 1, remaining: 5, expiresAt: null },
    { id: 2, remaining: 5, expiresAt: at('2025-04-01T00:00:00Z') },
    { id: 3, remaining: 0, expiresAt: at('2025-03-20T00:00:00Z') },
    { id: 4, remaining: 5, expiresAt: at('2025-03-09T00:00:00Z') },
    { id: 5, remaining: 5, expiresAt: at('2025-03-15T00:00:00Z') },
    { id: 6, remaining: 5, expiresAt: at('2025-03-15T00:00:00Z') },
  ];

  it('takes the month free quota while some is left, then usable paid rows', () => {
    expect(quotaSources({ freeQuota: 10, freeUsed: 3, paid, now })).toEqual([
      { kind: 'free', month: '2025-03' },
      { kind: 'paid', quotaId: 5 },
      { kind: 'paid', quotaId: 6 },
      { kind: 'paid', quotaId: 2 },
      { kind: 'paid', quotaId: 1 },
    ]);
    expect(quotaSources({ freeQuota: 10, freeUsed: 10, paid: [], now })).toEqual([]);
    expect(quotaSources({ freeQuota: 0, freeUsed: 0, paid: [], now })).toEqual([]);
  });

  it('skips expired and empty quotas; expiry is exclusive', () => {
    const edge = [{ id: 9, remaining: 1, expiresAt: now }];
    expect(quotaSources({ freeQuota: 0, freeUsed: 0, paid: edge, now })).toEqual([]);
    expect(quotaLeft({ freeQuota: 10, freeUsed: 3, paid, now })).toBe(7 + 20);
  });

  it('the free month is the China calendar month', () => {
    expect(quotaMonthOf(at('2025-01-31T15:59:59Z'))).toBe('2025-01');
    expect(quotaMonthOf(at('2025-01-31T16:00:00Z'))).toBe('2025-02');
  });
});

describe('rate limit: fixed minute windows', () => {
  it('window, headers and Retry-After', () => {
    const now = at('2025-03-10T00:00:42.500Z');
    const w = rateWindowOf(now);
    expect(w).toEqual({ start: at('2025-03-10T00:00:00Z'), end: at('2025-03-10T00:01:00Z') });
    expect(rateLimitHeaders(60, 61, w)).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(at('2025-03-10T00:01:00Z') / 1000),
    });
    expect(rateLimitHeaders(60, 10, w)['x-ratelimit-remaining']).toBe('50');
    expect(retryAfterSeconds(now, w)).toBe(18);
    expect(retryAfterSeconds(w.end - 1, w)).toBe(1);
  });
});

describe('metering', () => {
  it('methods: GET takes HEAD, ANY takes all, POST only POST', () => {
    expect(methodAccepted('GET', 'head')).toBe(true);
    expect(methodAccepted('GET', 'POST')).toBe(false);
    expect(methodAccepted('POST', 'POST')).toBe(true);
    expect(methodAccepted('POST', 'GET')).toBe(false);
    expect(methodAccepted('ANY', 'DELETE')).toBe(true);
  });

  it('outcomes and day deltas', () => {
    expect(outcomeOf(200)).toBe('ok');
    expect(outcomeOf(422)).toBe('error');
    expect(outcomeOf(429, 'rate')).toBe('rateLimited');
    expect(outcomeOf(429, 'quota')).toBe('noQuota');
    expect(dayDelta('noQuota', 2.4)).toEqual({
      calls: 1,
      ok: 0,
      errors: 0,
      rateLimited: 0,
      noQuota: 1,
      latencySum: 2,
      latencyMax: 2,
    });
  });

  it('stats days: 1..90, default 30', () => {
    expect(parseStatsDays(undefined)).toEqual({ days: 30 });
    expect(parseStatsDays('7')).toEqual({ days: 7 });
    expect(parseStatsDays('0')).toHaveProperty('error');
    expect(parseStatsDays('91')).toHaveProperty('error');
    expect(parseStatsDays('abc')).toHaveProperty('error');
  });

  it('series: zero-filled China days, oldest first, rows of one day added', () => {
    const now = at('2025-03-10T17:00:00Z'); // 2025-03-11 01:00 in China
    expect(chinaDayKey(now)).toBe('2025-03-11');
    const today = statsFrom(now, 1);
    const row = (dayStart: number, calls: number, latencySum: number, latencyMax: number) => ({
      dayStart,
      calls,
      ok: calls,
      errors: 0,
      rateLimited: 0,
      noQuota: 0,
      latencySum,
      latencyMax,
    });
    const series = statsSeries([row(today, 2, 10, 8), row(today, 2, 30, 20)], now, 3);
    expect(series.map((d) => d.day)).toEqual(['2025-03-09', '2025-03-10', '2025-03-11']);
    expect(series[0]).toEqual({
      day: '2025-03-09',
      calls: 0,
      ok: 0,
      errors: 0,
      rateLimited: 0,
      noQuota: 0,
      latencyAvgMs: 0,
      latencyMaxMs: 0,
    });
    expect(series[2]).toMatchObject({ calls: 4, ok: 4, latencyAvgMs: 10, latencyMaxMs: 20 });
  });
});
