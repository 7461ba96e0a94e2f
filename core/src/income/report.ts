/**
 * The income figures (DOMAIN.md "OMS/income"), from per-day sums the server reads with SQL:
 *
 * - revenue (营业额) = Σ paidFen of the orders paid in the period (by paidAt), refunds not taken off;
 * - refunds (退款) = Σ amountFen of the refunds paid back in the period (by refundedAt), whenever
 *   their order was paid — money counts on the day it moved;
 * - net (净收入) = revenue − refunds (negative on a day with more refunded than taken);
 * - orders (订单数) = the orders paid in the period;
 * - average ticket (客单价) = revenue / orders in whole fen, halves rounded up; 0 without orders.
 *
 * Every period of the range is a row, zero when nothing happened: a chart that skips empty days
 * draws a line across them as if business went on.
 */
import { dayText, type Granularity, type Period, periodsBetween } from './periods';
import type { ResolvedIncomeQuery } from './query';

export interface IncomeFigures {
  revenueFen: number;
  orders: number;
  refundsFen: number;
  netFen: number;
  avgTicketFen: number;
}

export interface IncomePeriodRow extends IncomeFigures {
  /** `2025-01-06` (a day, a week's Monday) or `2025-01` (a month). */
  period: string;
  /** The days of the period inside the range, `YYYY-MM-DD`, both included. */
  from: string;
  to: string;
}

export interface IncomeStoreRow extends IncomeFigures {
  /** null: orders that name no store. */
  storeId: number | null;
  storeName: string;
}

export interface IncomeReport {
  granularity: Granularity;
  from: string;
  to: string;
  storeId: number | null;
  series: IncomePeriodRow[];
  byStore: IncomeStoreRow[];
  totals: IncomeFigures;
}

/** One day's paid orders of one store, as the server's SQL sums them. */
export interface DaySales {
  day: number;
  storeId: number | null;
  orders: number;
  revenueFen: number;
}

/** One day's refunds paid back, of one store's orders. */
export interface DayRefunds {
  day: number;
  storeId: number | null;
  refundsFen: number;
}

/** `total / count` in whole fen, halves rounded up (¥10.005 → ¥10.01); 0 when count is 0. */
export function averageTicketFen(revenueFen: number, orders: number): number {
  if (orders <= 0) return 0;
  // Integer arithmetic: Math.round of a float quotient can land on the wrong side of a half.
  const q = Math.floor(revenueFen / orders);
  const r = revenueFen - q * orders;
  return 2 * r >= orders ? q + 1 : q;
}

/** The figures from the three sums. */
export function incomeFigures(revenueFen: number, orders: number, refundsFen: number): IncomeFigures {
  return {
    revenueFen,
    orders,
    refundsFen,
    netFen: revenueFen - refundsFen,
    avgTicketFen: averageTicketFen(revenueFen, orders),
  };
}

interface Sums {
  revenueFen: number;
  orders: number;
  refundsFen: number;
}
const emptySums = (): Sums => ({ revenueFen: 0, orders: 0, refundsFen: 0 });
const figuresOf = (s: Sums) => incomeFigures(s.revenueFen, s.orders, s.refundsFen);

/** A store's name in the table when it is known only by its id (deleted for good). */
export const unknownStoreName = (storeId: number | null): string =>
  storeId === null ? '（未指定门店）' : `门店 #${storeId}`;

/**
 * The report of `query` from per-day sums (days outside the range are ignored) and the stores to
 * list: every store given is a row, even without orders, and so is any store the sums name
 * beyond them. Stores are listed by revenue, highest first, then by id.
 */
export function buildIncomeReport(
  query: ResolvedIncomeQuery,
  sales: readonly DaySales[],
  refunds: readonly DayRefunds[],
  stores: readonly { id: number; name: string }[],
): IncomeReport {
  const periods = periodsBetween(query.granularity, query.fromDay, query.toDay);
  const byPeriod = periods.map(emptySums);
  // periods are in order and contiguous: a day's period is found by a binary search.
  const periodIndex = (day: number): number => {
    if (day < query.fromDay || day > query.toDay) return -1;
    let lo = 0;
    let hi = periods.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((periods[mid] as Period).fromDay <= day) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const byStore = new Map<number | null, Sums>(stores.map((s) => [s.id, emptySums()]));
  const storeSums = (storeId: number | null): Sums => {
    let sums = byStore.get(storeId);
    if (!sums) {
      sums = emptySums();
      byStore.set(storeId, sums);
    }
    return sums;
  };
  const totals = emptySums();

  for (const row of sales) {
    const i = periodIndex(row.day);
    if (i < 0) continue;
    for (const sums of [byPeriod[i] as Sums, storeSums(row.storeId), totals]) {
      sums.orders += row.orders;
      sums.revenueFen += row.revenueFen;
    }
  }
  for (const row of refunds) {
    const i = periodIndex(row.day);
    if (i < 0) continue;
    for (const sums of [byPeriod[i] as Sums, storeSums(row.storeId), totals])
      sums.refundsFen += row.refundsFen;
  }

  const names = new Map(stores.map((s) => [s.id, s.name]));
  return {
    granularity: query.granularity,
    from: query.from,
    to: query.to,
    storeId: query.storeId,
    series: periods.map((p, i) => ({
      period: p.period,
      from: dayText(p.fromDay),
      to: dayText(p.toDay),
      ...figuresOf(byPeriod[i] as Sums),
    })),
    byStore: [...byStore]
      .map(([storeId, sums]) => ({
        storeId,
        storeName: (storeId !== null ? names.get(storeId) : undefined) ?? unknownStoreName(storeId),
        ...figuresOf(sums),
      }))
      .sort((a, b) => b.revenueFen - a.revenueFen || (a.storeId ?? 0) - (b.storeId ?? 0)),
    totals: figuresOf(totals),
  };
}
