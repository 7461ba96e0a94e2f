/**
 * A resource list's view — page, page size, sort, keyword and filters — as a query string, so a
 * reload or a shared link shows the same list. The query uses the API's own names (`page`, `limit`,
 * `sort=-field`, `q`, `field`, `field_gte`/`field_lte`/`field_in`), checked against the registry
 * with core's parseListQuery: whatever it refuses (a renamed field, a hand-edited link) is dropped
 * rather than sent to the server.
 */
import {
  DEFAULT_PAGE_SIZE,
  FIRST_PAGE,
  type ListParams,
  MAX_PAGE_SIZE,
  parseListQuery,
  type ResourceDef,
} from '@wanxiang/core';

export interface ListState {
  page: number;
  /** Page size given in the query; null: the user's preference or the default. */
  limit: number | null;
  /** `field` or `-field` given in the query; null: the resource's default order. */
  sort: string | null;
  q: string;
  /** Filter query keys (`status`, `createdAt_gte` …) and their text. */
  filters: Record<string, string>;
}

/** Query keys that belong to the screen, not the list (the tab of a screen with several lists). */
export const SCREEN_KEYS = new Set(['tab']);
const LIST_KEYS = new Set(['page', 'limit', 'sort', 'q', 'pageIndex', 'pageSize']);

export const EMPTY_STATE: ListState = { page: FIRST_PAGE, limit: null, sort: null, q: '', filters: {} };

export function readListState(def: ResourceDef, search: string): ListState {
  const raw: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    if (!SCREEN_KEYS.has(key)) raw[key] = value;
  }
  if (raw.pageIndex !== undefined) raw.page ??= raw.pageIndex;
  if (raw.pageSize !== undefined) raw.limit ??= raw.pageSize;
  delete raw.pageIndex;
  delete raw.pageSize;
  // Drop what the registry refuses, then parse what is left (a second pass cannot fail on those keys).
  for (let pass = 0; pass < 2; pass++) {
    const parsed = parseListQuery(def, raw);
    if (parsed.ok) break;
    for (const key of Object.keys(parsed.fields)) delete raw[key];
  }
  const page = Number(raw.page);
  const limit = Number(raw.limit);
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!LIST_KEYS.has(key) && value !== '') filters[key] = value;
  }
  return {
    page: Number.isInteger(page) && page >= FIRST_PAGE ? page : FIRST_PAGE,
    limit: Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_SIZE ? limit : null,
    sort: raw.sort || null,
    q: raw.q?.trim() ?? '',
    filters,
  };
}

/** The state as a query string (`?…`, or '' for the default view); defaults are left out. */
export function writeListState(state: ListState): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state.filters)) if (value !== '') params.set(key, value);
  if (state.q) params.set('q', state.q);
  if (state.sort) params.set('sort', state.sort);
  if (state.page !== FIRST_PAGE) params.set('page', String(state.page));
  if (state.limit !== null) params.set('limit', String(state.limit));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The request for the list: the effective page size is the query's, else the preference's, else 20. */
export function toListParams(state: ListState, preferredLimit: number | undefined): ListParams {
  return {
    page: state.page,
    limit: state.limit ?? preferredLimit ?? DEFAULT_PAGE_SIZE,
    ...(state.sort ? { sort: state.sort } : {}),
    ...(state.q ? { q: state.q } : {}),
    filters: { ...state.filters },
  };
}

/** A stable text of a request: two equal views fetch once. */
export function paramsKey(params: ListParams): string {
  const filters = Object.entries(params.filters ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([params.page, params.limit, params.sort ?? '', params.q ?? '', filters]);
}

/** The view without its page (what a saved filter keeps): `?status=open&sort=-createdAt`. */
export function withoutPage(state: ListState): string {
  return writeListState({ ...state, page: FIRST_PAGE, limit: null });
}

/** Whether the list shows anything but its default view (filters or keyword). */
export function isFiltered(state: ListState): boolean {
  return state.q !== '' || Object.keys(state.filters).length > 0;
}
