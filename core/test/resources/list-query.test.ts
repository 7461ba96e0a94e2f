/**
 * parseListQuery against real definitions: the query string of API.md as the server, the UI and
 * the CLI read it — aliases, sort, ranges only on ordered types, `_in` lists, bad values, `q`.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAGE_SIZE,
  getResource,
  type ListQuery,
  listParamsToQuery,
  parseListQuery,
} from '../../src/index';

type Raw = Parameters<typeof parseListQuery>[1];
const parse = (name: string, raw: Raw) => parseListQuery(getResource(name), raw);
function ok(name: string, raw: Raw): ListQuery {
  const result = parse(name, raw);
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.fields)}`);
  return result.value;
}
function refused(name: string, raw: Raw) {
  const result = parse(name, raw);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.fields;
}

describe('paging', () => {
  it('defaults to the first page of 20 in the definition order', () => {
    expect(ok('orders', {})).toEqual({
      page: 1,
      limit: DEFAULT_PAGE_SIZE,
      sort: [{ field: 'createdAt', desc: true }],
      q: null,
      filters: [],
      cursor: null,
    });
    expect(ok('banners', {}).sort).toEqual([{ field: 'sort', desc: false }]);
    expect(ok('sslJobs', {}).sort).toEqual([{ field: 'notAfter', desc: false }]);
    expect(ok('monitorRuns', {}).sort).toEqual([{ field: 'at', desc: true }]);
  });

  it('takes pageIndex/pageSize as aliases of page/limit', () => {
    expect(ok('orders', { pageIndex: '3', pageSize: '50' })).toMatchObject({ page: 3, limit: 50 });
    expect(ok('goods', { page: 2, limit: 10 })).toMatchObject({ page: 2, limit: 10 });
    // page wins over its alias when both are sent.
    expect(ok('goods', { page: '2', pageIndex: '9' }).page).toBe(2);
  });

  it('refuses pages below 1 and limits outside 1–500', () => {
    expect(refused('orders', { page: '0', limit: '501' })).toEqual({
      page: '页码须为不小于 1 的整数',
      limit: '每页条数须在 1-500 之间',
    });
    expect(refused('orders', { pageSize: 'all' })).toEqual({ limit: '每页条数须在 1-500 之间' });
  });

  it('passes a keyset cursor through', () => {
    expect(ok('orders', { cursor: 'eyJpZCI6MTJ9' }).cursor).toBe('eyJpZCI6MTJ9');
  });
});

describe('sort', () => {
  it('accepts sortable fields and system fields, several keys, either direction', () => {
    expect(ok('orders', { sort: '-payableFen,id' }).sort).toEqual([
      { field: 'payableFen', desc: true },
      { field: 'id', desc: false },
    ]);
    expect(ok('sslJobs', { sort: 'daysLeft' }).sort).toEqual([{ field: 'daysLeft', desc: false }]);
    expect(ok('lawyers', { sort: '-updatedAt' }).sort).toEqual([{ field: 'updatedAt', desc: true }]);
  });

  it('refuses fields that are not sortable, unknown or write-only', () => {
    expect(refused('orders', { sort: 'remark' })).toEqual({ sort: '不支持按 remark 排序' });
    expect(refused('orders', { sort: '-nope' })).toEqual({ sort: '不支持按 nope 排序' });
    expect(refused('merchantApplications', { sort: 'idNumber' })).toEqual({ sort: '不支持按 idNumber 排序' });
    expect(refused('apiKeys', { sort: 'secretHash' })).toEqual({ sort: '不支持按 secretHash 排序' });
  });
});

describe('filters', () => {
  it('types equality filters by the field', () => {
    expect(ok('orders', { status: 'paid', storeId: '12', payableFen: '2800' }).filters).toEqual([
      { field: 'status', op: 'eq', value: 'paid' },
      { field: 'storeId', op: 'eq', value: 12 },
      { field: 'payableFen', op: 'eq', value: 2800 },
    ]);
    expect(ok('printers', { autoPrintOnAccept: '否' }).filters).toEqual([
      { field: 'autoPrintOnAccept', op: 'eq', value: false },
    ]);
    // An enum may be given by its Chinese label.
    expect(ok('lawyers', { status: '已认证' }).filters).toEqual([
      { field: 'status', op: 'eq', value: 'verified' },
    ]);
    expect(ok('docs', { publishDate: '2007-06-29' }).filters).toEqual([
      { field: 'publishDate', op: 'eq', value: '2007-06-29' },
    ]);
  });

  it('skips empty equality filters', () => {
    expect(ok('orders', { status: '', storeId: '' }).filters).toEqual([]);
  });

  it('takes _gte/_lte on ordered types: money, integers, numbers, dates, datetimes', () => {
    expect(
      ok('orders', {
        payableFen_gte: '1000',
        payableFen_lte: '5000',
        createdAt_gte: '2024-05-01T00:00:00+08:00',
      }).filters,
    ).toEqual([
      { field: 'payableFen', op: 'gte', value: 1000 },
      { field: 'payableFen', op: 'lte', value: 5000 },
      { field: 'createdAt', op: 'gte', value: '2024-04-30T16:00:00.000Z' },
    ]);
    expect(ok('sslJobs', { daysLeft_lte: '14' }).filters).toEqual([
      { field: 'daysLeft', op: 'lte', value: 14 },
    ]);
    expect(ok('movies', { rating_gte: '8.5', year_gte: '1990' }).filters).toEqual([
      { field: 'rating', op: 'gte', value: 8.5 },
      { field: 'year', op: 'gte', value: 1990 },
    ]);
    expect(ok('docs', { effectiveDate_gte: '2008-01-01' }).filters).toEqual([
      { field: 'effectiveDate', op: 'gte', value: '2008-01-01' },
    ]);
  });

  it('refuses ranges on unordered types', () => {
    expect(refused('orders', { status_gte: 'paid' })).toEqual({ status_gte: '状态不支持范围筛选' });
    expect(refused('printers', { autoPrintOnAccept_lte: 'true' })).toEqual({
      autoPrintOnAccept_lte: '接单自动打印不支持范围筛选',
    });
    expect(refused('deliveries', { runnerId_gte: '1' })).toEqual({ runnerId_gte: '骑手不支持范围筛选' });
  });

  it('takes _in lists, typed item by item', () => {
    expect(ok('orders', { status_in: 'paid,accepted,preparing' }).filters).toEqual([
      { field: 'status', op: 'in', value: ['paid', 'accepted', 'preparing'] },
    ]);
    expect(ok('deliveries', { runnerId_in: '3,5' }).filters).toEqual([
      { field: 'runnerId', op: 'in', value: [3, 5] },
    ]);
    expect(refused('orders', { status_in: 'paid,shipped' })).toEqual({
      status_in:
        '状态必须是其中一个[pending_payment,paid,accepted,preparing,ready,delivering,delivered,completed,cancelled]',
    });
  });

  it('refuses bad values with the field label', () => {
    expect(refused('orders', { payableFen: '12.5元', storeId: 'x', createdAt_gte: 'yesterday' })).toEqual({
      payableFen: '应付的值无效：12.5元',
      storeId: '门店的值无效：x',
      createdAt_gte: '创建时间的值无效：yesterday',
    });
    expect(refused('docs', { publishDate: '2007/06/29' })).toEqual({
      publishDate: '公布日期的值无效：2007/06/29',
    });
    expect(refused('monitorRuns', { important: 'maybe' })).toEqual({ important: '状态变化的值无效：maybe' });
  });

  it('refuses unknown, unfilterable and write-only fields, never reaching SQL', () => {
    expect(refused('orders', { "status'; DROP TABLE orders;--": 'x' })).toEqual({
      "status'; DROP TABLE orders;--": "不支持的筛选条件 status'; DROP TABLE orders;--",
    });
    expect(refused('orders', { remark: '加辣' })).toEqual({ remark: '不支持的筛选条件 remark' });
    expect(refused('thirdServices', { secret: 'abc' })).toEqual({ secret: '不支持的筛选条件 secret' });
    expect(refused('merchantApplications', { accountNumber_in: '1,2' })).toEqual({
      accountNumber_in: '不支持的筛选条件 accountNumber_in',
    });
  });

  it('refuses a filter key holding a line break instead of failing to read it (issue 18 fuzz)', () => {
    // The key pattern did not match across a line break: a TypeError, a 500 on every list.
    expect(refused('orders', { 'a\nb': '1', 'status\r\n_in': '1' })).toEqual({
      'a\nb': '不支持的筛选条件 a\nb',
      'status\r\n_in': '不支持的筛选条件 status\r\n_in',
    });
  });

  it('filters every resource by its system fields', () => {
    expect(ok('auditLogs', { id_in: '1,2', updatedAt_lte: '2024-01-01' }).filters).toEqual([
      { field: 'id', op: 'in', value: [1, 2] },
      { field: 'updatedAt', op: 'lte', value: '2024-01-01T00:00:00.000Z' },
    ]);
  });
});

describe('keyword q', () => {
  it('is kept, trimmed, on a resource with searchable fields', () => {
    expect(ok('docs', { q: '  劳动合同 ' }).q).toBe('劳动合同');
    expect(ok('orders', { q: 'WX2024' }).q).toBe('WX2024');
    expect(ok('docs', { q: '  ' }).q).toBeNull();
  });

  it('is refused on a resource without searchable fields', () => {
    expect(refused('userCoupons', { q: '张三' })).toEqual({ q: '此列表不支持关键字搜索' });
    expect(refused('deliveries', { q: '1' })).toEqual({ q: '此列表不支持关键字搜索' });
  });

  it('is at most 100 characters', () => {
    expect(refused('docs', { q: '法'.repeat(101) })).toEqual({ q: '关键字最多100个字符' });
    expect(ok('docs', { q: '法'.repeat(100) }).q).toHaveLength(100);
  });
});

describe('the round trip from client params', () => {
  it('listParamsToQuery writes what parseListQuery reads', () => {
    const query = listParamsToQuery({
      page: 2,
      limit: 50,
      sort: '-payableFen',
      q: '张',
      filters: { status_in: ['paid', 'accepted'], storeId: 3, payableFen_gte: 1000, remark: undefined },
    });
    expect(query).toEqual({
      page: '2',
      limit: '50',
      sort: '-payableFen',
      q: '张',
      status_in: 'paid,accepted',
      storeId: '3',
      payableFen_gte: '1000',
    });
    expect(ok('orders', query)).toEqual({
      page: 2,
      limit: 50,
      sort: [{ field: 'payableFen', desc: true }],
      q: '张',
      cursor: null,
      filters: [
        { field: 'status', op: 'in', value: ['paid', 'accepted'] },
        { field: 'storeId', op: 'eq', value: 3 },
        { field: 'payableFen', op: 'gte', value: 1000 },
      ],
    });
  });
});
