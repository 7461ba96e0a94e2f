/** An issued coupon's window: 固定日期 as given, 领取后 N 天 in whole China days. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHINA_OFFSET_MS, chinaMidnightOf, couponExpiresAt, couponWindow, DAY_MS } from '../../src/index';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('couponWindow', () => {
  it('counts the day of issue as the first of N China days', () => {
    // 2025-05-01 15:00 China time, 7 days → usable to 2025-05-07 24:00 China time.
    const issued = '2025-05-01T07:00:00.000Z';
    expect(iso(couponExpiresAt({ validity: 'relative', validDays: 7 }, issued))).toBe(
      '2025-05-07T16:00:00.000Z',
    );
  });

  it('uses China’s date, not UTC’s, around midnight', () => {
    // 2025-05-01 23:30 China time is still 5月1日 there (15:30 UTC).
    expect(iso(couponExpiresAt({ validity: 'relative', validDays: 1 }, '2025-05-01T15:30:00.000Z'))).toBe(
      '2025-05-01T16:00:00.000Z',
    );
    // 2025-05-02 00:30 China time is 5月2日 (16:30 UTC on 5月1日).
    expect(iso(couponExpiresAt({ validity: 'relative', validDays: 1 }, '2025-05-01T16:30:00.000Z'))).toBe(
      '2025-05-02T16:00:00.000Z',
    );
  });

  it('gives a 固定日期 coupon its template’s range whenever it is issued', () => {
    const window = couponWindow(
      { validity: 'fixed', validFrom: '2025-05-01T00:00:00Z', validTo: '2025-05-31T16:00:00Z', validDays: 7 },
      '2025-05-20T00:00:00Z',
    );
    expect({ startsAt: iso(window.startsAt), expiresAt: iso(window.expiresAt) }).toEqual({
      startsAt: '2025-05-01T00:00:00.000Z',
      expiresAt: '2025-05-31T16:00:00.000Z',
    });
  });

  it('always ends at a China midnight, after the issue and at most N days later (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: 1, max: 365 }),
        (issued, days) => {
          const end = couponExpiresAt({ validity: 'relative', validDays: days }, issued) as number;
          expect((end + CHINA_OFFSET_MS) % DAY_MS).toBe(0);
          expect(end).toBeGreaterThan(issued);
          expect(end - issued).toBeLessThanOrEqual(days * DAY_MS);
          expect(end - issued).toBeGreaterThan((days - 1) * DAY_MS);
          expect(chinaMidnightOf(end - 1)).toBe(end - DAY_MS);
        },
      ),
    );
  });
});
