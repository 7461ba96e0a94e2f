/**
 * The query of GET /api/admin/income (and its export): which periods, which range, which store.
 * The server refuses what this refuses (422 with `data.fields`) and the screen builds its
 * requests from the same defaults, so a link without a range means the same everywhere.
 */
import {
  dayText,
  defaultIncomeRange,
  GRANULARITIES,
  type Granularity,
  MAX_PERIODS,
  parseDayText,
  periodCount,
  spanLimitText,
} from './periods';

export interface IncomeQuery {
  granularity: Granularity;
  /** `YYYY-MM-DD`, China days, both ends included. */
  from: string;
  to: string;
  /** One store, or null for every store. */
  storeId: number | null;
}

/** A query as the server runs it: the range as days too. */
export interface ResolvedIncomeQuery extends IncomeQuery {
  fromDay: number;
  toDay: number;
}

export type IncomeQueryResult =
  | { ok: true; query: ResolvedIncomeQuery }
  | { ok: false; fields: Record<string, string> };

const KEYS = new Set(['granularity', 'from', 'to', 'storeId']);
const DATE_MESSAGE = '请输入有效日期（YYYY-MM-DD）';

/**
 * Reads a query string's values (`?granularity=week&from=…`), as of China day `today`.
 *
 * - `granularity` day (the default), week or month;
 * - `from`/`to`: a missing end is today, a missing start the default range before the end
 *   (`defaultIncomeRange`); an end after today is read as today — a month asked for in the
 *   middle of it covers the days so far, rather than a row of days that have not happened;
 * - at most `MAX_PERIODS` periods (366 days, 53 weeks, 36 months);
 * - `storeId` a store's id, or absent for every store.
 *
 * Unknown keys are refused, so a mistyped `granulairty` is not silently a daily report.
 */
export function parseIncomeQuery(raw: Readonly<Record<string, unknown>>, today: number): IncomeQueryResult {
  const fields: Record<string, string> = {};
  const text = (key: string): string | undefined => {
    const value = raw[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string') return value.trim() || undefined;
    if (typeof value === 'number') return String(value);
    fields[key] = '只能给一个值';
    return undefined;
  };
  for (const key of Object.keys(raw)) if (!KEYS.has(key)) fields[key] = '未知的查询参数';

  const granularityText = text('granularity') ?? 'day';
  const granularity = (GRANULARITIES as readonly string[]).includes(granularityText)
    ? (granularityText as Granularity)
    : null;
  if (!granularity) fields.granularity ??= '统计粒度须为 day、week 或 month';

  const fromText = text('from');
  const toText = text('to');
  const fromGiven = fromText === undefined ? undefined : parseDayText(fromText);
  const toGiven = toText === undefined ? undefined : parseDayText(toText);
  if (fromGiven === null) fields.from ??= DATE_MESSAGE;
  if (toGiven === null) fields.to ??= DATE_MESSAGE;

  const storeText = text('storeId');
  let storeId: number | null = null;
  if (storeText !== undefined) {
    const id = /^\d{1,15}$/.test(storeText) ? Number(storeText) : 0;
    if (id >= 1) storeId = id;
    else fields.storeId ??= '门店须为门店的 id';
  }

  if (!granularity || fromGiven === null || toGiven === null) return { ok: false, fields };
  const toDay = Math.min(toGiven ?? today, today);
  const fromDay = fromGiven ?? defaultIncomeRange(granularity, toDay).fromDay;
  if (fromDay > today) fields.from ??= '开始日期不能晚于今天';
  else if (toGiven !== undefined && fromDay > toGiven) fields.from ??= '开始日期不能晚于结束日期';
  else if (periodCount(granularity, fromDay, toDay) > MAX_PERIODS[granularity])
    fields.from ??= spanLimitText(granularity);
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  return {
    ok: true,
    query: { granularity, from: dayText(fromDay), to: dayText(toDay), storeId, fromDay, toDay },
  };
}

/** The query string of a query (what the screen sends, what the export link carries). */
export function incomeQueryString(query: IncomeQuery): string {
  const params = new URLSearchParams({ granularity: query.granularity, from: query.from, to: query.to });
  if (query.storeId !== null) params.set('storeId', String(query.storeId));
  return params.toString();
}
