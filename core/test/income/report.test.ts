import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  averageTicketFen,
  buildIncomeReport,
  type DayRefunds,
  type DaySales,
  incomeTableText,
  parseDayText,
  parseIncomeQuery,
  type ResolvedIncomeQuery,
} from '../../src/index';

const day = (text: string) => parseDayText(text) as number;
function query(raw: Record<string, string>): ResolvedIncomeQuery {
  const result = parseIncomeQuery(raw, day('2025-12-31'));
  if (!result.ok) throw new Error(JSON.stringify(result.fields));
  return result.query;
}

describe('averageTicketFen', () => {
  it('rounds halves up, in whole fen', () => {
    expect(averageTicketFen(1001, 2)).toBe(501); // 500.5
    expect(averageTicketFen(1000, 3)).toBe(333); // 333.33…
    expect(averageTicketFen(2000, 3)).toBe(667); // 666.67
    expect(averageTicketFen(0, 5)).toBe(0);
    expect(averageTicketFen(0, 0)).toBe(0);
    expect(averageTicketFen(1234, 0)).toBe(0);
  });

  it('matches exact integer arithmetic for large totals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 50 }),
        fc.integer({ min: 1, max: 2_000_000 }),
        (total, n) => {
          const exact = (BigInt(total) * 2n + BigInt(n)) / (BigInt(n) * 2n);
          expect(averageTicketFen(total, n)).toBe(Number(exact));
        },
      ),
    );
  });
});

describe('buildIncomeReport', () => {
  const stores = [
    { id: 1, name: '一号店' },
    { id: 2, name: '二号店' },
    { id: 3, name: '三号店' },
  ];

  it('sums days into weeks, keeps empty weeks as zero rows and lists every store', () => {
    const q = query({ granularity: 'week', from: '2025-01-06', to: '2025-01-26' });
    const sales: DaySales[] = [
      { day: day('2025-01-06'), storeId: 1, orders: 2, revenueFen: 3000 },
      { day: day('2025-01-12'), storeId: 2, orders: 1, revenueFen: 1001 },
      { day: day('2025-01-20'), storeId: 1, orders: 1, revenueFen: 500 },
    ];
    const refunds: DayRefunds[] = [{ day: day('2025-01-21'), storeId: 2, refundsFen: 1001 }];
    const report = buildIncomeReport(q, sales, refunds, stores);
    expect(report.series).toEqual([
      {
        period: '2025-01-06',
        from: '2025-01-06',
        to: '2025-01-12',
        revenueFen: 4001,
        orders: 3,
        refundsFen: 0,
        netFen: 4001,
        avgTicketFen: 1334,
      },
      {
        period: '2025-01-13',
        from: '2025-01-13',
        to: '2025-01-19',
        revenueFen: 0,
        orders: 0,
        refundsFen: 0,
        netFen: 0,
        avgTicketFen: 0,
      },
      {
        period: '2025-01-20',
        from: '2025-01-20',
        to: '2025-01-26',
        revenueFen: 500,
        orders: 1,
        refundsFen: 1001,
        netFen: -501,
        avgTicketFen: 500,
      },
    ]);
    expect(report.byStore.map((s) => [s.storeName, s.revenueFen, s.orders, s.refundsFen, s.netFen])).toEqual([
      ['一号店', 3500, 3, 0, 3500],
      ['二号店', 1001, 1, 1001, 0],
      ['三号店', 0, 0, 0, 0],
    ]);
    expect(report.totals).toEqual({
      revenueFen: 4501,
      orders: 4,
      refundsFen: 1001,
      netFen: 3500,
      avgTicketFen: 1125, // 1125.25
    });
  });

  it('names a store it only knows by id, and ignores days outside the range', () => {
    const q = query({ from: '2025-01-06', to: '2025-01-06' });
    const report = buildIncomeReport(
      q,
      [
        { day: day('2025-01-06'), storeId: 9, orders: 1, revenueFen: 100 },
        { day: day('2025-01-07'), storeId: 1, orders: 5, revenueFen: 999 },
      ],
      [],
      [],
    );
    expect(report.byStore.map((s) => [s.storeId, s.storeName])).toEqual([[9, '门店 #9']]);
    expect(report.totals.orders).toBe(1);
  });

  it('the series, the stores and the totals always agree', () => {
    const q = query({ granularity: 'month', from: '2025-01-15', to: '2025-06-10' });
    const dayIn = fc.integer({ min: q.fromDay - 3, max: q.toDay + 3 });
    const storeId = fc.constantFrom(1, 2, 3, null);
    const sale = fc.record({
      day: dayIn,
      storeId,
      orders: fc.integer({ min: 0, max: 50 }),
      revenueFen: fc.integer({ min: 0, max: 10_000_000 }),
    });
    const refund = fc.record({ day: dayIn, storeId, refundsFen: fc.integer({ min: 0, max: 1_000_000 }) });
    fc.assert(
      fc.property(fc.array(sale), fc.array(refund), (sales, refunds) => {
        const r = buildIncomeReport(q, sales, refunds, stores);
        for (const key of ['revenueFen', 'orders', 'refundsFen', 'netFen'] as const) {
          expect(r.series.reduce((s, row) => s + row[key], 0)).toBe(r.totals[key]);
          expect(r.byStore.reduce((s, row) => s + row[key], 0)).toBe(r.totals[key]);
        }
        expect(r.series.map((row) => row.period)).toEqual([
          '2025-01',
          '2025-02',
          '2025-03',
          '2025-04',
          '2025-05',
          '2025-06',
        ]);
      }),
    );
  });
});

describe('incomeTableText', () => {
  it('writes the table as the screen shows it, money as plain yuan, with a 合计 line', () => {
    const q = query({ granularity: 'week', from: '2024-12-30', to: '2025-01-08' });
    const report = buildIncomeReport(
      q,
      [{ day: day('2025-01-07'), storeId: 1, orders: 3, revenueFen: 123456 }],
      [{ day: day('2025-01-08'), storeId: 1, refundsFen: 200000 }],
      [{ id: 1, name: '一号店' }],
    );
    expect(incomeTableText(report, 'period')).toEqual([
      ['期间', '营业额', '订单数', '退款', '净收入', '客单价'],
      ['2024-12-30 ~ 2025-01-05', '0.00', '0', '0.00', '0.00', '0.00'],
      ['2025-01-06 ~ 01-08', '1234.56', '3', '2000.00', '-765.44', '411.52'],
      ['合计', '1234.56', '3', '2000.00', '-765.44', '411.52'],
    ]);
    expect(incomeTableText(report, 'store')).toEqual([
      ['门店', '营业额', '订单数', '退款', '净收入', '客单价'],
      ['一号店', '1234.56', '3', '2000.00', '-765.44', '411.52'],
      ['合计', '1234.56', '3', '2000.00', '-765.44', '411.52'],
    ]);
  });
});
