/**
 * `ResourceClient<T>`: the typed client of one registry resource over core's HTTP client — what the
 * admin tables, forms and the CLI call. A failing list fetch resolves with `success: false` so a
 * table can show its error state (spec §7).
 */
import type { SuccessEnvelope } from '../contract/envelope';
import type { HttpClient, RequestOptions } from '../http/client';
import type { ResourceDef } from './define';
import { type ListParams, listParamsToQuery } from './list-query';

/** Display names of related rows: `{storeId: {'12': '朝阳门店'}}`. */
export type Relations = Record<string, Record<string, string>>;

/** The wire answer of a list (API.md). */
export interface ListAnswer<T> {
  results: T[];
  page: { total: number; page: number; limit: number; nextCursor?: string | null };
  relations?: Relations;
}

/** The list as a table wants it (spec §3: list, count, pageIndex, pageSize). */
export interface ListResult<T> {
  success: boolean;
  list: T[];
  count: number;
  pageIndex: number;
  pageSize: number;
  relations: Relations;
  nextCursor: string | null;
  error?: unknown;
}

export interface Row {
  id: number;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export interface ResourceClient<T extends Row = Row> {
  readonly def: ResourceDef;
  readonly path: string;
  list(params?: ListParams): Promise<ListResult<T>>;
  get(id: number): Promise<T>;
  create(body: Partial<T> | Record<string, unknown>): Promise<T>;
  /** `expectedUpdatedAt` makes it conditional: a row changed since is a 409. */
  update(id: number, body: Partial<T> | Record<string, unknown>, expectedUpdatedAt?: string): Promise<T>;
  remove(id: number): Promise<void>;
  action(id: number, name: string, input?: Record<string, unknown>): Promise<T>;
  /** A collection action (`scope: 'collection'`): `POST …/<name>`; answers the handler's summary. */
  collectionAction<R = unknown>(name: string, input?: Record<string, unknown>): Promise<R>;
  /** Every matching row, fetched page by page with keyset cursors (constant memory). */
  iterate(params?: Omit<ListParams, 'page' | 'cursor'>): AsyncGenerator<T>;
  /** The export path with the same filters, for streaming clients. */
  exportPath(format: 'csv' | 'ndjson', params?: Omit<ListParams, 'page' | 'limit' | 'cursor'>): string;
}

export function mapListAnswer<T>(answer: ListAnswer<T>): ListResult<T> {
  return {
    success: true,
    list: answer.results,
    count: answer.page.total,
    pageIndex: answer.page.page,
    pageSize: answer.page.limit,
    relations: answer.relations ?? {},
    nextCursor: answer.page.nextCursor ?? null,
  };
}

export function createResourceClient<T extends Row = Row>(
  http: HttpClient,
  def: ResourceDef,
): ResourceClient<T> {
  const path = `/api/admin/${def.name}`;
  const send = async <R>(url: string, options: RequestOptions) =>
    (await http.request<SuccessEnvelope<R>>(url, options)).data;

  return {
    def,
    path,
    async list(params = {}) {
      try {
        return mapListAnswer(await send<ListAnswer<T>>(path, { query: listParamsToQuery(params) }));
      } catch (error) {
        return {
          success: false,
          list: [],
          count: 0,
          pageIndex: params.page ?? 1,
          pageSize: params.limit ?? 0,
          relations: {},
          nextCursor: null,
          error,
        };
      }
    },
    get: (id) => send<T>(`${path}/${id}`, {}),
    create: (body) => send<T>(path, { method: 'POST', body }),
    update: (id, body, expectedUpdatedAt) =>
      send<T>(`${path}/${id}`, {
        method: 'PATCH',
        body,
        ...(expectedUpdatedAt ? { headers: { 'If-Match': expectedUpdatedAt } } : {}),
      }),
    async remove(id) {
      await send<unknown>(`${path}/${id}`, { method: 'DELETE' });
    },
    action: (id, name, input) => send<T>(`${path}/${id}/${name}`, { method: 'POST', body: input ?? {} }),
    collectionAction: <R>(name: string, input?: Record<string, unknown>) =>
      send<R>(`${path}/${name}`, { method: 'POST', body: input ?? {} }),
    async *iterate(params = {}) {
      let cursor: string | undefined;
      do {
        // Reads for scripts: failures throw (no silent success:false here) and toast nothing.
        const answer = await send<ListAnswer<T>>(path, {
          query: listParamsToQuery({ ...params, limit: params.limit ?? 500, ...(cursor ? { cursor } : {}) }),
          kind: 'silent',
        });
        yield* answer.results;
        cursor = answer.page.nextCursor ?? undefined;
      } while (cursor);
    },
    exportPath(format, params = {}) {
      const query = new URLSearchParams({ ...listParamsToQuery(params), format });
      return `${path}/export?${query.toString()}`;
    },
  };
}
