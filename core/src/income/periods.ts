/**
 * The periods of the income figures (DOMAIN.md "OMS/income"): China days (UTC+8 all year, the
 * same arithmetic as format/date.ts), weeks that start on Monday, calendar months. A day is
 * counted as days since 1970-01-01 in China, so a period is a plain range of integers and the
 * server can group rows by `(t + 8 h) / 24 h` in SQL on either database.
 */
import { DAY_MS } from '../format/date';

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The switch's labels (日/周/月) and the unit a span is counted in. */
export const GRANULARITY_LABELS: Readonly<Record<Granularity, string>> = {
  day: '日',
  week: '周',
  month: '月',
};
const UNITS: Readonly<Record<Granularity, string>> = { day: '天', week: '周', month: '个月' };

/**
 * The most periods one answer covers: a year of days (a leap year's 366), a year of weeks, three
 * years of months. A longer range reads more rows than a screen should wait for.
 */
export const MAX_PERIODS: Readonly<Record<Granularity, number>> = { day: 366, week: 53, month: 36 };

/** A day → `2025-01-06`. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `2025-01-06` → its day; null when the text is no real date (`2025-02-30`, `2025-1-6`). */
export function parseDayText(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
  return Number.isInteger(day) && dayText(day) === text ? day : null;
}

/** 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

function monthStart(day: number, monthsLater = 0): number {
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + monthsLater, 1) / DAY_MS;
}

/** The first day of the period holding `day`: itself, its week's Monday, its month's 1st. */
export function periodStart(granularity: Granularity, day: number): number {
  if (granularity === 'day') return day;
  if (granularity === 'week') return day - weekdayOf(day);
  return monthStart(day);
}

/** The first day of the period after the one starting at `start`. */
function nextPeriodStart(granularity: Granularity, start: number): number {
  if (granularity === 'day') return start + 1;
  if (granularity === 'week') return start + 7;
  return monthStart(start, 1);
}

/** A period of a range: its key, and the days of it inside the range (both ends included). */
export interface Period {
  /** `2025-01-06` for a day or a week (its Monday), `2025-01` for a month. */
  period: string;
  fromDay: number;
  toDay: number;
}

/**
 * Every period that meets `fromDay…toDay`, in order, each cut to the range: a range that starts
 * on a Wednesday has a first week of five days. None is left out, so a period without orders is
 * still a row.
 */
export function periodsBetween(granularity: Granularity, fromDay: number, toDay: number): Period[] {
  const out: Period[] = [];
  for (let start = periodStart(granularity, fromDay); start <= toDay; ) {
    const next = nextPeriodStart(granularity, start);
    out.push({
      period: granularity === 'month' ? dayText(start).slice(0, 7) : dayText(start),
      fromDay: Math.max(start, fromDay),
      toDay: Math.min(next - 1, toDay),
    });
    start = next;
  }
  return out;
}

/** How many periods `fromDay…toDay` meets, without listing them. */
export function periodCount(granularity: Granularity, fromDay: number, toDay: number): number {
  if (toDay < fromDay) return 0;
  if (granularity === 'day') return toDay - fromDay + 1;
  if (granularity === 'week') return (periodStart('week', toDay) - periodStart('week', fromDay)) / 7 + 1;
  const from = new Date(fromDay * DAY_MS);
  const to = new Date(toDay * DAY_MS);
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + 1;
}

/** `按日统计最多 366 天` — the refusal of a range with too many periods. */
export function spanLimitText(granularity: Granularity): string {
  return `按${GRANULARITY_LABELS[granularity]}统计最多 ${MAX_PERIODS[granularity]} ${UNITS[granularity]}，请缩短日期范围`;
}

/**
 * A period as people read it in the table and the CSV: `2025-01-06`; a week `2025-01-06 ~ 01-12`
 * (the year again only when the week crosses into the next); a month `2025-01`. A period cut by
 * the range shows the days it covers.
 */
export function periodLabel(granularity: Granularity, fromDay: number, toDay: number): string {
  const from = dayText(fromDay);
  if (granularity === 'day') return from;
  if (granularity === 'month') return from.slice(0, 7);
  const to = dayText(toDay);
  return `${from} ~ ${to.slice(0, 4) === from.slice(0, 4) ? to.slice(5) : to}`;
}

/**
 * The range a screen or a caller gets when it names none, ending on `endDay`: the last 30 days,
 * the last 12 weeks (from a Monday), the last 12 months (from the 1st).
 */
export function defaultIncomeRange(
  granularity: Granularity,
  endDay: number,
): { fromDay: number; toDay: number } {
  if (granularity === 'day') return { fromDay: endDay - 29, toDay: endDay };
  if (granularity === 'week') return { fromDay: periodStart('week', endDay) - 11 * 7, toDay: endDay };
  return { fromDay: monthStart(endDay, -11), toDay: endDay };
}
