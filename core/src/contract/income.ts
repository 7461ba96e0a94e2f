/**
 * GET /api/admin/income and its CSV (finance:read): the figures of the 收入统计 screen
 * (core/src/income has what they mean). The server answers them, the screen and scripts read them.
 */
import type { HttpClient } from '../http/client';
import { type IncomeQuery, incomeQueryString } from '../income/query';
import type { IncomeReport } from '../income/report';
import type { IncomeTableView } from '../income/table';
import type { SuccessEnvelope } from './envelope';

export const INCOME_PATH = '/api/admin/income';
export const INCOME_EXPORT_PATH = '/api/admin/income/export';

export async function fetchIncome(http: HttpClient, query: IncomeQuery): Promise<IncomeReport> {
  return (await http.request<SuccessEnvelope<IncomeReport>>(`${INCOME_PATH}?${incomeQueryString(query)}`))
    .data;
}

/** The CSV of the table as the screen shows it (`by` period or store). */
export function incomeExportPath(query: IncomeQuery, by: IncomeTableView): string {
  return `${INCOME_EXPORT_PATH}?${incomeQueryString(query)}&format=csv&by=${by}`;
}
