/**
 * The preferences the back office keeps per user, their keys and shapes. Values arrive from the
 * server as plain JSON, so each reader accepts only the shape it expects.
 */

/** An admin screen open in the tab bar (多标签页): its path and the query it was left at. */
export interface OpenTab {
  path: string;
  search: string;
}

/** Per resource list: the columns shown (in order) and the page size. */
export interface TablePreference {
  columns?: string[];
  pageSize?: number;
}

/** A named filter of one resource list: the list's query string without the page. */
export interface SavedFilter {
  name: string;
  search: string;
}

export const TABS_KEY = 'admin:tabs';
export const tableKey = (resource: string) => `table:${resource}`;
export const filtersKey = (resource: string) => `filters:${resource}`;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isSearch = (v: unknown): v is string => typeof v === 'string' && (v === '' || v.startsWith('?'));

export function readTabs(value: unknown): OpenTab[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (t): t is OpenTab =>
      isRecord(t) &&
      typeof t.path === 'string' &&
      t.path.startsWith('/admin') &&
      !t.path.startsWith('//') &&
      isSearch(t.search),
  );
}

export function readTablePreference(value: unknown): TablePreference | undefined {
  if (!isRecord(value)) return undefined;
  const out: TablePreference = {};
  if (Array.isArray(value.columns)) out.columns = value.columns.filter((c) => typeof c === 'string');
  if (typeof value.pageSize === 'number' && Number.isInteger(value.pageSize) && value.pageSize > 0)
    out.pageSize = value.pageSize;
  return out;
}

export function readSavedFilters(value: unknown): SavedFilter[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (f): f is SavedFilter => isRecord(f) && typeof f.name === 'string' && f.name !== '' && isSearch(f.search),
  );
}
