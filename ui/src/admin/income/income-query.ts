/**
 * The screen's query in its URL (`?granularity=week&from=…&to=…&storeId=…`), read with core's
 * rules (parseIncomeQuery): a link or a reload shows the same figures, and what core refuses (a
 * hand-edited date) is dropped for the default rather than sent.
 */
import {
  chinaDayOf,
  dayText,
  defaultIncomeRange,
  type Granularity,
  type IncomeQuery,
  incomeQueryString,
  parseIncomeQuery,
} from '@wanxiang/core';

/** Today in China, whatever the browser's zone. */
export function chinaToday(now = Date.now()): number {
  return chinaDayOf(now);
}

export function readIncomeQuery(search: string, today: number): IncomeQuery {
  const raw: Record<string, string> = Object.fromEntries(new URLSearchParams(search));
  for (let pass = 0; pass < 3; pass++) {
    const parsed = parseIncomeQuery(raw, today);
    if (parsed.ok) {
      const { granularity, from, to, storeId } = parsed.query;
      return { granularity, from, to, storeId };
    }
    for (const key of Object.keys(parsed.fields)) delete raw[key];
  }
  return withGranularity('day', today);
}

export function incomeSearch(query: IncomeQuery): string {
  return `?${incomeQueryString(query)}`;
}

/** A granularity with its default range ending today (30 days, 12 weeks, 12 months). */
export function withGranularity(
  granularity: Granularity,
  today: number,
  storeId: number | null = null,
): IncomeQuery {
  const { fromDay, toDay } = defaultIncomeRange(granularity, today);
  return { granularity, from: dayText(fromDay), to: dayText(toDay), storeId };
}
