/**
 * createResourceClient over the real HTTP client against msw: the paths, methods, headers and
 * queries it sends for real definitions, and how it maps the answers for tables and exports.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createHttpClient, createResourceClient, getResource } from '../../src/index';
import { recordingPorts } from '../support/ports';

const API = 'http://api.test';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** A Headers or URLSearchParams as a plain object (core's lib has no DOM.Iterable). */
function entries(source: {
  forEach(fn: (value: string, key: string) => void): void;
}): Record<string, string> {
  const out: Record<string, string> = {};
  source.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** Records every request to /api/admin/* and answers with `reply(seen)`. */
function record(reply: (seen: Seen) => { body: unknown; status?: number }): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${API}/api/admin/*`, async ({ request }) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
      const entry: Seen = {
        method: request.method,
        path: url.pathname,
        query: entries(url.searchParams),
        headers: entries(request.headers),
        body: text ? JSON.parse(text) : undefined,
      };
      seen.push(entry);
      const { body, status = 200 } = reply(entry);
      return HttpResponse.json(body as object, { status });
    }),
  );
  return seen;
}

function client(name: string) {
  const rec = recordingPorts('token-1');
  const http = createHttpClient({ ...rec.ports, baseURL: API });
  return { ...rec, resource: createResourceClient(http, getResource(name)) };
}

const order = (id: number) => ({
  id,
  createdAt: '2024-05-01T04:00:00.000Z',
  updatedAt: '2024-05-01T04:00:00.000Z',
  orderNo: `WX${id}`,
  storeId: 3,
  status: 'paid',
});

describe('list', () => {
  it('sends page, limit, sort, q and filters, and maps results/page/relations/nextCursor', async () => {
    const seen = record(() => ({
      body: {
        success: true,
        data: {
          results: [order(1), order(2)],
          page: { total: 2345, page: 2, limit: 20, nextCursor: 'c2' },
          relations: { storeId: { '3': '朝阳门店' } },
        },
      },
    }));
    const { resource, log } = client('orders');
    expect(resource.path).toBe('/api/admin/orders');
    const result = await resource.list({
      page: 2,
      limit: 20,
      sort: '-payableFen',
      q: '张',
      filters: { status_in: ['paid', 'accepted'], storeId: 3, remark: '' },
    });
    expect(result).toEqual({
      success: true,
      list: [order(1), order(2)],
      count: 2345,
      pageIndex: 2,
      pageSize: 20,
      relations: { storeId: { '3': '朝阳门店' } },
      nextCursor: 'c2',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'GET',
      path: '/api/admin/orders',
      query: {
        page: '2',
        limit: '20',
        sort: '-payableFen',
        q: '张',
        status_in: 'paid,accepted',
        storeId: '3',
      },
    });
    expect(seen[0]?.headers.authorization).toBe('Bearer token-1');
    // A read toasts nothing.
    expect(log).toEqual([]);
  });

  it('fills relations and nextCursor when the answer has none', async () => {
    record(() => ({
      body: { success: true, data: { results: [], page: { total: 0, page: 1, limit: 20 } } },
    }));
    const result = await client('bbsTags').resource.list();
    expect(result).toEqual({
      success: true,
      list: [],
      count: 0,
      pageIndex: 1,
      pageSize: 20,
      relations: {},
      nextCursor: null,
    });
  });

  it('resolves success: false when the server refuses the list', async () => {
    record(() => ({
      body: { success: false, message: '不支持的筛选条件 remark', errorCode: 422 },
      status: 422,
    }));
    const { resource } = client('orders');
    const result = await resource.list({ page: 3, limit: 50, filters: { remark: 'x' } });
    expect(result).toMatchObject({
      success: false,
      list: [],
      count: 0,
      pageIndex: 3,
      pageSize: 50,
      relations: {},
      nextCursor: null,
    });
    expect(result.error).toBeDefined();
  });

  it('resolves success: false on a 500 (after the catalogue has shown 系统错误)', async () => {
    record(() => ({ body: { success: false, message: 'boom' }, status: 500 }));
    const { resource, log } = client('goods');
    const result = await resource.list();
    expect(result.success).toBe(false);
    expect(log).toEqual(['error: 系统错误 boom']);
  });

  it('resolves success: false when the network fails', async () => {
    server.use(http.all(`${API}/api/admin/*`, () => HttpResponse.error()));
    expect((await client('goods').resource.list()).success).toBe(false);
  });
});

describe('one row', () => {
  it('get reads /R/{id}', async () => {
    const seen = record(() => ({ body: { success: true, data: order(7) } }));
    await expect(client('orders').resource.get(7)).resolves.toEqual(order(7));
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /api/admin/orders/7']);
  });

  it('create POSTs the body to /R and resolves with the row', async () => {
    const seen = record(({ body }) => ({ body: { success: true, data: { id: 9, ...(body as object) } } }));
    const { resource, log } = client('stores');
    const row = await resource.create({ name: '朝阳门店', phone: '010-88886666', address: '建国路 88 号' });
    expect(row).toMatchObject({ id: 9, name: '朝阳门店' });
    expect(seen).toMatchObject([
      { method: 'POST', path: '/api/admin/stores', body: { name: '朝阳门店', phone: '010-88886666' } },
    ]);
    expect(log).toEqual(['success: 操作成功']);
  });

  it('update PATCHes /R/{id}, conditionally with If-Match', async () => {
    const seen = record(({ body }) => ({ body: { success: true, data: { id: 4, ...(body as object) } } }));
    const { resource } = client('goods');
    await resource.update(4, { priceFen: 2800 }, '2024-05-01T04:00:00.000Z');
    await resource.update(4, { stock: 10 });
    expect(seen.map((s) => [s.method, s.path, s.body, s.headers['if-match']])).toEqual([
      ['PATCH', '/api/admin/goods/4', { priceFen: 2800 }, '2024-05-01T04:00:00.000Z'],
      ['PATCH', '/api/admin/goods/4', { stock: 10 }, undefined],
    ]);
  });

  it('update rejects on a stale row (409), passing the failure to the caller (spec §8)', async () => {
    record(() => ({ body: { success: false, message: '数据已被他人修改，请刷新后重试' }, status: 409 }));
    const { resource, log } = client('goods');
    const error = await resource.update(4, { stock: 1 }, '2024-01-01T00:00:00.000Z').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: '数据已被他人修改，请刷新后重试' });
    expect(log).toEqual([]);
  });

  it('create rejects on a 422 with the per-field messages', async () => {
    record(() => ({
      body: {
        success: false,
        message: '输入有误，请检查后重试',
        data: { fields: { name: '请输入门店名称' } },
      },
      status: 422,
    }));
    const error = await client('stores')
      .resource.create({})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, fields: { name: '请输入门店名称' } });
  });

  it('remove DELETEs /R/{id}', async () => {
    const seen = record(() => ({ body: { success: true, data: null } }));
    await expect(client('articles').resource.remove(12)).resolves.toBeUndefined();
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['DELETE /api/admin/articles/12']);
  });

  it('action POSTs to /R/{id}/{action} with its input, or an empty object', async () => {
    const seen = record(() => ({ body: { success: true, data: { id: 5, status: 'published' } } }));
    const topics = client('bbsTopics').resource;
    await topics.action(5, 'approve');
    await topics.action(5, 'reject', { reason: '含广告' });
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/api/admin/bbsTopics/5/approve', {}],
      ['POST', '/api/admin/bbsTopics/5/reject', { reason: '含广告' }],
    ]);
  });
});

describe('iterate', () => {
  it('follows nextCursor page by page until it is absent, keeping the filters', async () => {
    const pages: Record<string, { rows: number[]; next?: string | null }> = {
      '': { rows: [1, 2], next: 'c1' },
      c1: { rows: [3, 4], next: 'c2' },
      c2: { rows: [5], next: null },
    };
    const seen = record(({ query }) => {
      const page = pages[query.cursor ?? ''] as { rows: number[]; next?: string | null };
      return {
        body: {
          success: true,
          data: {
            results: page.rows.map(order),
            page: { total: 5, page: 1, limit: 2, nextCursor: page.next },
          },
        },
      };
    });
    const { resource, log } = client('orders');
    const ids: number[] = [];
    for await (const row of resource.iterate({ filters: { status: 'paid' }, sort: '-createdAt' }))
      ids.push(row.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((s) => s.query)).toEqual([
      { limit: '500', sort: '-createdAt', status: 'paid' },
      { limit: '500', sort: '-createdAt', status: 'paid', cursor: 'c1' },
      { limit: '500', sort: '-createdAt', status: 'paid', cursor: 'c2' },
    ]);
    expect(log).toEqual([]);
  });

  it('stops after one page when the answer has no cursor, and honours a given limit', async () => {
    const seen = record(() => ({
      body: { success: true, data: { results: [order(1)], page: { total: 1, page: 1, limit: 100 } } },
    }));
    const rows = [];
    for await (const row of client('orders').resource.iterate({ limit: 100 })) rows.push(row);
    expect(rows).toHaveLength(1);
    expect(seen.map((s) => s.query)).toEqual([{ limit: '100' }]);
  });

  it('throws when a page fails, instead of ending quietly', async () => {
    record(() => ({ body: { success: false, message: '没有权限执行此操作' }, status: 403 }));
    const read = async () => {
      for await (const _row of client('orders').resource.iterate()) {
        // nothing
      }
    };
    await expect(read()).rejects.toBeDefined();
  });
});

describe('exportPath', () => {
  it('encodes the filters, sort and q with the format', () => {
    const path = client('orders').resource.exportPath('csv', {
      sort: '-createdAt',
      q: '张 三',
      filters: { status_in: ['paid', 'accepted'], createdAt_gte: '2024-05-01T00:00:00.000Z', storeId: 3 },
    });
    expect(path).toBe(
      '/api/admin/orders/export?sort=-createdAt&q=%E5%BC%A0+%E4%B8%89&status_in=paid%2Caccepted&createdAt_gte=2024-05-01T00%3A00%3A00.000Z&storeId=3&format=csv',
    );
    const url = new URL(path, API);
    expect(entries(url.searchParams)).toEqual({
      sort: '-createdAt',
      q: '张 三',
      status_in: 'paid,accepted',
      createdAt_gte: '2024-05-01T00:00:00.000Z',
      storeId: '3',
      format: 'csv',
    });
  });

  it('is bare with no filters', () => {
    expect(client('docSearchLogs').resource.exportPath('ndjson')).toBe(
      '/api/admin/docSearchLogs/export?format=ndjson',
    );
  });
});
