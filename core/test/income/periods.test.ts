import { describe, expect, it } from 'vitest';
import {
  chinaDayOf,
  chinaDayStart,
  DAY_MS,
  dayText,
  defaultIncomeRange,
  parseDayText,
  periodCount,
  periodLabel,
  periodsBetween,
  weekdayOf,
} from '../../src/index';

const day = (text: string) => parseDayText(text) as number;

describe('China days', () => {
  it('a China day starts at 16:00 UTC the day before', () => {
    expect(chinaDayOf(Date.UTC(2025, 0, 5, 15, 59, 59, 999))).toBe(day('2025-01-05'));
    expect(chinaDayOf(Date.UTC(2025, 0, 5, 16, 0, 0, 0))).toBe(day('2025-01-06'));
    expect(chinaDayStart(day('2025-01-06'))).toBe(Date.UTC(2025, 0, 5, 16));
    expect(chinaDayStart(day('2025-01-07')) - chinaDayStart(day('2025-01-06'))).toBe(DAY_MS);
  });

  it('reads only real dates written YYYY-MM-DD', () => {
    expect(dayText(day('2024-02-29'))).toBe('2024-02-29');
    for (const bad of [
      '2025-02-29',
      '2025-13-01',
      '2025-1-6',
      '2025/01/06',
      '20250106',
      '2025-01-06T00:00',
      '',
    ])
      expect(parseDayText(bad)).toBeNull();
  });

  it('weeks start on Monday', () => {
    expect(weekdayOf(day('2025-01-06'))).toBe(0); // a Monday
    expect(weekdayOf(day('2025-01-12'))).toBe(6); // a Sunday
    expect(weekdayOf(day('1970-01-01'))).toBe(3); // a Thursday
    expect(weekdayOf(day('1969-12-29'))).toBe(0); // before day 0 too
  });
});

describe('periods of a range', () => {
  it('days: every day, both ends included', () => {
    const periods = periodsBetween('day', day('2025-01-30'), day('2025-02-02'));
    expect(periods.map((p) => p.period)).toEqual(['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-02']);
  });

  it('weeks: Monday to Sunday, the first and last cut to the range', () => {
    const periods = periodsBetween('week', day('2025-01-08'), day('2025-01-21'));
    expect(periods.map((p) => [p.period, dayText(p.fromDay), dayText(p.toDay)])).toEqual([
      ['2025-01-06', '2025-01-08', '2025-01-12'],
      ['2025-01-13', '2025-01-13', '2025-01-19'],
      ['2025-01-20', '2025-01-20', '2025-01-21'],
    ]);
  });

  it('months: calendar months, across a year end and a leap February', () => {
    const periods = periodsBetween('month', day('2023-12-15'), day('2024-03-01'));
    expect(periods.map((p) => [p.period, dayText(p.fromDay), dayText(p.toDay)])).toEqual([
      ['2023-12', '2023-12-15', '2023-12-31'],
      ['2024-01', '2024-01-01', '2024-01-31'],
      ['2024-02', '2024-02-01', '2024-02-29'],
      ['2024-03', '2024-03-01', '2024-03-01'],
    ]);
  });

  it('periodCount agrees with the list', () => {
    for (const g of ['day', 'week', 'month'] as const)
      for (const [from, to] of [
        ['2025-01-01', '2025-01-01'],
        ['2024-12-30', '2025-03-02'],
        ['2023-02-28', '2025-11-30'],
      ] as const)
        expect(periodCount(g, day(from), day(to))).toBe(periodsBetween(g, day(from), day(to)).length);
  });

  it('labels periods as people read them', () => {
    expect(periodLabel('day', day('2025-01-06'), day('2025-01-06'))).toBe('2025-01-06');
    expect(periodLabel('week', day('2025-01-06'), day('2025-01-12'))).toBe('2025-01-06 ~ 01-12');
    expect(periodLabel('week', day('2024-12-30'), day('2025-01-05'))).toBe('2024-12-30 ~ 2025-01-05');
    expect(periodLabel('month', day('2025-01-01'), day('2025-01-31'))).toBe('2025-01');
  });

  it('default ranges: 30 days, 12 weeks from a Monday, 12 months from the 1st', () => {
    const today = day('2025-03-12'); // a Wednesday
    const text = (r: { fromDay: number; toDay: number }) => [dayText(r.fromDay), dayText(r.toDay)];
    expect(text(defaultIncomeRange('day', today))).toEqual(['2025-02-11', '2025-03-12']);
    expect(text(defaultIncomeRange('week', today))).toEqual(['2024-12-23', '2025-03-12']);
    expect(text(defaultIncomeRange('month', today))).toEqual(['2024-04-01', '2025-03-12']);
    expect(
      periodCount('week', ...(Object.values(defaultIncomeRange('week', today)) as [number, number])),
    ).toBe(12);
    expect(
      periodCount('month', ...(Object.values(defaultIncomeRange('month', today)) as [number, number])),
    ).toBe(12);
  });
});
