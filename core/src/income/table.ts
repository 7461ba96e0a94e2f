/**
 * The income table as the screen shows it and the CSV export writes it: by period or by store,
 * the five figures, and a 合计 line. One list of columns, so the sheet and the screen say the same.
 */
import { fenToYuan } from '../format/money';
import { parseDayText, periodLabel } from './periods';
import type { IncomeFigures, IncomeReport } from './report';

export type IncomeFigureKey = keyof IncomeFigures;

export interface IncomeColumn {
  key: IncomeFigureKey;
  label: string;
  /** Money in fen (¥ on screen, yuan in the sheet); otherwise a count. */
  money: boolean;
}

export const INCOME_COLUMNS: readonly IncomeColumn[] = [
  { key: 'revenueFen', label: '营业额', money: true },
  { key: 'orders', label: '订单数', money: false },
  { key: 'refundsFen', label: '退款', money: true },
  { key: 'netFen', label: '净收入', money: true },
  { key: 'avgTicketFen', label: '客单价', money: true },
];

/** The table's two views: one line per period, or one per store. */
export const INCOME_TABLE_VIEWS = ['period', 'store'] as const;
export type IncomeTableView = (typeof INCOME_TABLE_VIEWS)[number];

export const TOTAL_LABEL = '合计';

/** A period row's label from its key and days (`2025-01-06 ~ 01-12`). */
export function periodRowLabel(
  report: Pick<IncomeReport, 'granularity'>,
  row: { from: string; to: string },
): string {
  const from = parseDayText(row.from) ?? 0;
  const to = parseDayText(row.to) ?? from;
  return periodLabel(report.granularity, from, to);
}

/**
 * The table as text cells: a header (期间 or 门店, then the figures) and a line per period or
 * store, then 合计. Money as plain yuan with two decimals (`1234.50`), as the resource export
 * writes it, so a spreadsheet reads numbers.
 */
export function incomeTableText(report: IncomeReport, view: IncomeTableView): string[][] {
  const cells = (f: IncomeFigures) =>
    INCOME_COLUMNS.map((c) => (c.money ? fenToYuan(f[c.key]) : String(f[c.key])));
  const lines =
    view === 'period'
      ? report.series.map((row) => [periodRowLabel(report, row), ...cells(row)])
      : report.byStore.map((row) => [row.storeName, ...cells(row)]);
  return [
    [view === 'period' ? '期间' : '门店', ...INCOME_COLUMNS.map((c) => c.label)],
    ...lines,
    [TOTAL_LABEL, ...cells(report.totals)],
  ];
}
