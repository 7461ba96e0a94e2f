/**
 * The headless controller of one resource list (react-admin's useListController, for our
 * registry): the view held in a query string, the rows of the server, paging, sorting, filters,
 * selection and the mutations. Views render what it returns and call its commands; it decides
 * nothing about looks. The query string comes from the caller (`location`), so a screen decides
 * where it lives (the URL, or a hidden tab's frozen copy).
 */
import {
  createResourceClient,
  type ListParams,
  type ListResult,
  type Relations,
  type ResourceClient,
  type ResourceDef,
  type Row,
} from '@wanxiang/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { readTablePreference, tableKey } from '../preferences/keys';
import { usePreference, usePreferencesSettled } from '../preferences/PreferencesContext';
import { useServices } from '../session/services-context';
import {
  isFiltered,
  type ListState,
  paramsKey,
  readListState,
  toListParams,
  withoutPage,
  writeListState,
} from './list-state';

export interface ListLocation {
  /** `?…` or ''. */
  search: string;
  setSearch(search: string): void;
}

export interface ListController<T extends Row = Row> {
  def: ResourceDef;
  /** Filters the screen always applies (a review queue's status): sent, never in the query. */
  fixedFilters: Readonly<Record<string, string>>;
  client: ResourceClient<T>;
  state: ListState;
  /** The request of the rows on screen (what an export repeats, without the page). */
  params: ListParams;
  rows: T[];
  total: number;
  relations: Relations;
  /** A request is on its way. */
  loading: boolean;
  /** The last answer failed (the rows are empty); `refetch` tries again. */
  error: unknown | null;
  /** At least one answer arrived. */
  loaded: boolean;
  filtered: boolean;
  setPage(page: number, limit?: number): void;
  setSort(field: string | null, descending?: boolean): void;
  /** New filter query keys and keyword: back to the first page. */
  setFilters(filters: Record<string, string>, q?: string): void;
  /** The view of a saved filter (`?status=open`). */
  applySearch(search: string): void;
  /** The view without page (what a saved filter keeps). */
  savedSearch: string;
  refetch(): void;
  selectedIds: number[];
  setSelectedIds(ids: number[]): void;
  create(body: Record<string, unknown>): Promise<T>;
  update(row: T, body: Record<string, unknown>): Promise<T>;
  remove(ids: readonly number[]): Promise<void>;
  runAction(row: T, action: string, input?: Record<string, unknown>): Promise<T>;
  /** A collection action (the toolbar's): its summary; the list is fetched again. */
  runCollectionAction(action: string, input?: Record<string, unknown>): Promise<unknown>;
}

const NO_FILTERS: Readonly<Record<string, string>> = {};

interface Fetched<T> {
  key: string;
  result: ListResult<T>;
}

export function useListController<T extends Row = Row>(
  def: ResourceDef,
  location: ListLocation,
  options: { client?: ResourceClient<T>; fixedFilters?: Readonly<Record<string, string>> } = {},
): ListController<T> {
  const fixedFilters = options.fixedFilters ?? NO_FILTERS;
  const { http, notices } = useServices();
  const client = useMemo(
    () => options.client ?? createResourceClient<T>(http, def),
    [options.client, http, def],
  );
  const settled = usePreferencesSettled();
  const [tablePreference, setTablePreference] = usePreference(tableKey(def.name), readTablePreference);
  const preferredLimit = tablePreference?.pageSize;

  const { search, setSearch } = location;
  const state = useMemo(() => {
    const read = readListState(def, search);
    // A fixed filter cannot be changed from the query.
    const filters = Object.fromEntries(
      Object.entries(read.filters).filter(([key]) => !(key in fixedFilters)),
    );
    return { ...read, filters };
  }, [def, search, fixedFilters]);
  const params = useMemo(() => {
    const request = toListParams(state, preferredLimit);
    return { ...request, filters: { ...request.filters, ...fixedFilters } };
  }, [state, preferredLimit, fixedFilters]);
  const key = paramsKey(params);

  const [fetched, setFetched] = useState<Fetched<T> | null>(null);
  const [loading, setLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const sequence = useRef(0);
  // What was last asked for: a tab shown again keeps its rows instead of fetching them anew.
  const asked = useRef<string | null>(null);

  useEffect(() => {
    // The page size may come from the user's preferences: wait for them rather than fetch twice.
    if (!settled) return;
    const request = `${key}#${reloads}`;
    if (asked.current === request) return;
    asked.current = request;
    const mine = ++sequence.current;
    setLoading(true);
    void client.list(params).then((result) => {
      if (mine !== sequence.current) return;
      setFetched({ key, result });
      setLoading(false);
    });
  }, [settled, key, reloads, client, params]);

  useEffect(() => {
    // A new view (page, filter, sort) clears the selection.
    if (fetched) setSelectedIds([]);
  }, [fetched]);

  const result = fetched?.result ?? null;
  const write = useCallback((next: ListState) => setSearch(writeListState(next)), [setSearch]);

  // Past the last page (rows deleted, a stale link): go to the last page that has rows.
  useEffect(() => {
    if (!result?.success || result.list.length > 0 || result.count === 0 || state.page === 1) return;
    const last = Math.max(1, Math.ceil(result.count / (params.limit ?? 20)));
    if (last < state.page) write({ ...state, page: last });
  }, [result, state, params.limit, write]);

  const refetch = useCallback(() => setReloads((n) => n + 1), []);

  const setPage = useCallback(
    (page: number, limit?: number) => {
      const effective = params.limit;
      if (limit !== undefined && limit !== effective) {
        // A new page size is remembered for this resource and starts again at the first page.
        setTablePreference({ ...tablePreference, pageSize: limit });
        write({ ...state, page: 1, limit });
        return;
      }
      write({ ...state, page });
    },
    [params.limit, state, write, tablePreference, setTablePreference],
  );

  const setSort = useCallback(
    (field: string | null, descending = false) =>
      write({ ...state, page: 1, sort: field ? `${descending ? '-' : ''}${field}` : null }),
    [state, write],
  );

  const setFilters = useCallback(
    (filters: Record<string, string>, q?: string) =>
      write({ ...state, page: 1, filters, q: q === undefined ? state.q : q.trim() }),
    [state, write],
  );

  const applySearch = useCallback(
    (saved: string) => {
      const next = readListState(def, saved);
      write({ ...next, page: 1, limit: state.limit });
    },
    [def, state.limit, write],
  );

  const create = useCallback(
    async (body: Record<string, unknown>) => {
      const row = await client.create(body);
      refetch();
      return row;
    },
    [client, refetch],
  );

  const update = useCallback(
    async (row: T, body: Record<string, unknown>) => {
      const saved = await client.update(row.id, body, row.updatedAt);
      refetch();
      return saved;
    },
    [client, refetch],
  );

  const remove = useCallback(
    async (ids: readonly number[]) => {
      try {
        if (ids.length === 1) {
          await client.remove(ids[0] as number);
          return;
        }
        // Several rows: one notice for all of them rather than one per row.
        for (const id of ids)
          await http.request(`${client.path}/${id}`, { method: 'DELETE', kind: 'silent' });
        notices.notify('success', `已删除 ${ids.length} 条记录`);
      } finally {
        // Some may be gone even when a later one failed.
        refetch();
      }
    },
    [client, http, notices, refetch],
  );

  const runAction = useCallback(
    async (row: T, action: string, input?: Record<string, unknown>) => {
      const saved = await client.action(row.id, action, input);
      refetch();
      return saved;
    },
    [client, refetch],
  );

  const runCollectionAction = useCallback(
    async (action: string, input?: Record<string, unknown>) => {
      try {
        return await client.collectionAction(action, input);
      } finally {
        refetch();
      }
    },
    [client, refetch],
  );

  return {
    def,
    fixedFilters,
    client,
    state,
    params,
    rows: result?.list ?? [],
    total: result?.count ?? 0,
    relations: result?.relations ?? {},
    loading: loading || !settled,
    error: result && !result.success ? (result.error ?? new Error('list failed')) : null,
    loaded: fetched !== null,
    filtered: isFiltered(state),
    setPage,
    setSort,
    setFilters,
    applySearch,
    savedSearch: withoutPage(state),
    refetch,
    selectedIds,
    setSelectedIds,
    create,
    update,
    remove,
    runAction,
    runCollectionAction,
  };
}
