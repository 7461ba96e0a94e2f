import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi, seedOrders } from './helpers.js';

const COUNT = 45; // statuses cycle through 5 values: 9 orders each

describe.each(DB_KINDS)('resource lists on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let seeded: Awaited<ReturnType<typeof seedOrders>>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    seeded = await seedOrders(t, COUNT);
  });
  afterAll(async () => t?.close());

  const list = async (query: string) => {
    const res = await api.get(`/api/admin/orders${query ? `?${query}` : ''}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as {
      results: Record<string, unknown>[];
      page: { total: number; page: number; limit: number; nextCursor: string | null };
      relations: Record<string, Record<string, string>>;
    };
  };
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id as number);
  const refused = async (query: string) => {
    const res = await api.get(`/api/admin/orders?${query}`);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errorCode).toBe(422);
    return res.body.data.fields as Record<string, string>;
  };

  it('answers the first 20 rows newest first with the total and a cursor', async () => {
    const data = await list('');
    expect(data.results).toHaveLength(20);
    expect(data.page).toMatchObject({ total: COUNT, page: 1, limit: 20 });
    expect(data.page.nextCursor).toEqual(expect.any(String));
    // Created one minute apart in id order: newest first is descending ids.
    expect(ids(data.results)).toEqual([...seeded.ids].reverse().slice(0, 20));
    const row = data.results[0] as Record<string, unknown>;
    expect(row).toMatchObject({
      id: seeded.ids.at(-1),
      orderNo: 'NO000045',
      storeId: seeded.storeA,
      items: [{ goodsId: 1, name: '宫保鸡丁', qty: 3, unitPriceFen: 2800 }],
      payableFen: 1440,
      status: 'cancelled',
      createdAt: '2025-01-01T00:44:00.000Z',
    });
    expect(row.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('names related rows, one map per relation field', async () => {
    const data = await list('limit=4');
    expect(data.relations.storeId).toEqual({
      [String(seeded.storeA)]: '朝阳门店',
      [String(seeded.storeB)]: '海淀门店',
    });
    expect(data.relations.userId).toEqual({ [String(seeded.customer)]: 'guest' });
    expect(data.relations.runnerId).toEqual({});
  });

  it('leaves the total out (-1) when asked with withTotal=false, and gives the same rows', async () => {
    const counted = await list('status=paid&limit=5');
    const uncounted = await list('status=paid&limit=5&withTotal=false');
    expect(counted.page.total).toBe(9);
    expect(uncounted.page).toEqual({ ...counted.page, total: -1 });
    expect(uncounted.results).toEqual(counted.results);
    expect(uncounted.relations).toEqual(counted.relations);
    expect((await list('status=paid&limit=5&withTotal=0')).page.total).toBe(-1);
    expect((await list('status=paid&limit=5&withTotal=true')).page.total).toBe(9);
    // A short last page knows its total without counting, but was not asked for it either.
    expect((await list('status=paid&limit=50&withTotal=false')).page.total).toBe(-1);
  });

  it('shows a related row renamed through the engine at once, and one renamed elsewhere within the TTL', async () => {
    const before = await list('limit=4');
    expect(before.relations.storeId?.[String(seeded.storeA)]).toBe('朝阳门店');
    const store = await api.get(`/api/admin/stores/${seeded.storeA}`);
    const renamed = await api.patch(`/api/admin/stores/${seeded.storeA}`, {
      name: '朝阳旗舰店',
      updatedAt: store.body.data.updatedAt,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await list('limit=4')).relations.storeId?.[String(seeded.storeA)]).toBe('朝阳旗舰店');

    // A writer that bypasses this process (another server on the same database).
    await t.app.db
      // biome-ignore lint/suspicious/noExplicitAny: a registry table outside the typed schema
      .updateTable('stores' as any)
      .set({ name: '朝阳门店' })
      .where('id', '=', seeded.storeA)
      .execute();
    t.clock.advance(10_000);
    expect((await list('limit=4')).relations.storeId?.[String(seeded.storeA)]).toBe('朝阳门店');
  });

  it('pages with page/limit and the pageIndex/pageSize aliases; the last page has no cursor', async () => {
    const third = await list('page=3&limit=20');
    const alias = await list('pageIndex=3&pageSize=20');
    expect(ids(alias.results)).toEqual(ids(third.results));
    expect(third.results).toHaveLength(5);
    expect(third.page).toEqual({ total: COUNT, page: 3, limit: 20, nextCursor: null });
    const beyond = await list('page=9');
    expect(beyond.results).toEqual([]);
    expect(beyond.page.total).toBe(COUNT);
  });

  it('sorts by sortable fields, ascending or descending, several keys', async () => {
    const asc = await list('sort=payableFen&limit=3');
    expect(asc.results.map((r) => r.payableFen)).toEqual([1000, 1010, 1020]);
    const desc = await list('sort=-payableFen&limit=3');
    expect(desc.results.map((r) => r.payableFen)).toEqual([1440, 1430, 1420]);
    // Unpaid orders have no payment time: those ties are broken by the second key.
    const multi = (await list('sort=paidAt,-payableFen&limit=100')).results;
    const unpaid = multi.filter((r) => r.paidAt === null).map((r) => r.payableFen as number);
    const paid = multi.filter((r) => r.paidAt !== null).map((r) => Date.parse(r.paidAt as string));
    expect(unpaid).toHaveLength(9);
    expect(unpaid).toEqual([...unpaid].sort((a, b) => b - a));
    expect(paid).toEqual([...paid].sort((a, b) => a - b));
    const firstUnpaid = multi.findIndex((r) => r.paidAt === null);
    expect(multi.slice(firstUnpaid, firstUnpaid + 9).every((r) => r.paidAt === null)).toBe(true);
  });

  it('filters by equality, ranges, lists and dates', async () => {
    const paid = await list('status=paid');
    expect(paid.page.total).toBe(9);
    expect(paid.results.every((r) => r.status === 'paid')).toBe(true);

    const byStore = await list(`storeId=${seeded.storeB}&limit=100`);
    expect(byStore.page.total).toBe(22);
    expect(byStore.results.every((r) => r.storeId === seeded.storeB)).toBe(true);

    const range = await list('payableFen_gte=1100&payableFen_lte=1200&limit=100');
    expect(range.results.map((r) => r.payableFen).sort()).toEqual(
      Array.from({ length: 11 }, (_, i) => 1100 + i * 10),
    );

    const within = await list('status_in=paid,accepted&limit=100');
    expect(within.page.total).toBe(18);
    expect(new Set(within.results.map((r) => r.status))).toEqual(new Set(['paid', 'accepted']));

    // Chinese enum labels are accepted as values too (typed in a CLI).
    expect((await list('status=已支付')).page.total).toBe(9);

    const since = await list(`createdAt_gte=${encodeURIComponent('2025-01-01T00:40:00Z')}&limit=100`);
    expect(since.page.total).toBe(5);

    const combined = await list(`status=paid&storeId=${seeded.storeA}&limit=100`);
    expect(combined.results.every((r) => r.status === 'paid' && r.storeId === seeded.storeA)).toBe(true);
    expect(combined.page.total).toBe(combined.results.length);
  });

  it('searches the searchable fields with q, case-insensitively, wildcards taken literally', async () => {
    const street = await list('q=望京&limit=100');
    expect(street.page.total).toBe(12);
    expect(street.results.every((r) => String(r.address).includes('望京'))).toBe(true);
    // orderNo is searchable; the keyword's case does not matter.
    const numbers = await list('q=no00004&limit=100');
    expect(numbers.results.map((r) => r.orderNo).sort()).toEqual([
      'NO000040',
      'NO000041',
      'NO000042',
      'NO000043',
      'NO000044',
      'NO000045',
    ]);
    expect((await list('q=%25')).page.total).toBe(0);
    expect((await list('q=_')).page.total).toBe(0);
    expect((await list('q=NO00004_')).page.total).toBe(0);
  });

  it('refuses unknown fields, unknown sorts and bad values with Chinese messages, before any SQL', async () => {
    expect(await refused('foo=1')).toEqual({ foo: '不支持的筛选条件 foo' });
    expect(await refused('sort=address')).toEqual({ sort: '不支持按 address 排序' });
    expect(await refused('sort=nope')).toEqual({ sort: '不支持按 nope 排序' });
    expect((await refused('storeId=abc')).storeId).toBe('门店的值无效：abc');
    expect((await refused('status=nope')).status).toBe(
      '状态必须是其中一个[pending_payment,paid,accepted,preparing,ready,delivering,delivered,completed,cancelled]',
    );
    expect(await refused('status_gte=paid')).toEqual({ status_gte: '状态不支持范围筛选' });
    expect(await refused('limit=501')).toEqual({ limit: '每页条数须在 1-500 之间' });
    expect(await refused('page=0')).toEqual({ page: '页码须为不小于 1 的整数' });
    // Several problems are reported at once.
    expect(Object.keys(await refused('foo=1&sort=bar&page=x')).sort()).toEqual(['foo', 'page', 'sort']);
    // A resource without searchable fields says so.
    const res = await api.get('/api/admin/configVersions?q=x');
    expect(res.status).toBe(422);
    expect(res.body.data.fields).toEqual({ q: '此列表不支持关键字搜索' });
  });

  it('treats SQL in values as plain data', async () => {
    for (const query of [
      `q=${encodeURIComponent("' OR 1=1 --")}`,
      `q=${encodeURIComponent('"; DROP TABLE orders; --')}`,
      `orderNo=${encodeURIComponent("NO000001' OR '1'='1")}`,
      `address=${encodeURIComponent('x) OR (1=1')}`,
    ]) {
      const res = await api.get(`/api/admin/orders?${query}`);
      if (res.status === 200) expect(res.body.data.page.total).toBe(0);
      else expect(res.status).toBe(422);
    }
    expect(await refused(`sort=${encodeURIComponent('id;drop table orders')}`)).toHaveProperty('sort');
    expect(await refused(`status_in=${encodeURIComponent("paid') or ('1'='1")}`)).toHaveProperty('status_in');
    expect(await refused(`${encodeURIComponent('id) or 1=1 --')}=1`)).toBeDefined();
    expect((await list('')).page.total).toBe(COUNT);
  });

  it.each([
    ['the default order', ''],
    ['a nullable column ascending', 'sort=paidAt'],
    ['a nullable column descending', 'sort=-paidAt'],
    ['two keys of mixed direction with ties', 'sort=paidAt,-payableFen'],
  ])('walks every row once with keyset cursors in %s', async (_name, sort) => {
    const byOffset = await list(`${sort}&limit=100`);
    const walked: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const data = await list(`${sort}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...ids(data.results));
      expect(data.page.total).toBe(COUNT);
      cursor = data.page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(walked).toEqual(ids(byOffset.results));
    expect(new Set(walked).size).toBe(COUNT);
  });

  it('keeps filters with a cursor and refuses a cursor of another order or a forged one', async () => {
    const first = await list('status=paid&limit=5');
    const next = await list(`status=paid&limit=5&cursor=${first.page.nextCursor}`);
    expect(next.results).toHaveLength(4);
    expect(next.results.every((r) => r.status === 'paid')).toBe(true);
    expect(next.page.nextCursor).toBeNull();
    expect(await refused(`sort=payableFen&cursor=${first.page.nextCursor}`)).toEqual({
      cursor: '游标无效，请从第一页重新开始',
    });
    expect(await refused('cursor=not-a-cursor')).toHaveProperty('cursor');
    const forged = Buffer.from(JSON.stringify({ o: '-created_at,-id', v: [{ x: 1 }, 2] })).toString(
      'base64url',
    );
    expect(await refused(`cursor=${forged}`)).toHaveProperty('cursor');
  });

  it('keeps totals right after writes through the engine, and catches up with other writers within the TTL', async () => {
    const stores = await api.get('/api/admin/stores?limit=1');
    const before = stores.body.data.page.total as number;
    const created = await api.post('/api/admin/stores', {
      name: '西单门店',
      phone: '010-66666666',
      address: '北京市西城区西单北大街 1 号',
    });
    expect(created.status, created.text).toBe(200);
    expect((await api.get('/api/admin/stores?limit=1')).body.data.page.total).toBe(before + 1);
    await api.del(`/api/admin/stores/${created.body.data.id}`);
    expect((await api.get('/api/admin/stores?limit=1')).body.data.page.total).toBe(before);

    // A writer that bypasses this process (another server on the same database).
    expect((await list('status=paid&limit=2')).page.total).toBe(9);
    const table = getResource('orders').name;
    await t.app.db
      // biome-ignore lint/suspicious/noExplicitAny: a registry table outside the typed schema
      .insertInto(table as any)
      .values({ order_no: 'OTHER-1', status: 'paid', created_at: 1, updated_at: 1 })
      .execute();
    expect((await list('status=paid&limit=2')).page.total).toBe(9);
    t.clock.advance(10_000);
    expect((await list('status=paid&limit=2')).page.total).toBe(10);
  });

  // On SQLite the page's JSON and its keys are written by SQLite; JSON cannot hold a blob, so a
  // page ordered by a column holding one (written outside the engine) is read the JavaScript way.
  it.runIf(kind === 'sqlite')('answers a page ordered by a column that holds a blob', async () => {
    await t.app.db
      // biome-ignore lint/suspicious/noExplicitAny: a registry table outside the typed schema
      .insertInto('stores' as any)
      .values({
        name: Buffer.from('二进制门店'),
        phone: '010-1',
        address: '北京',
        status: 'open',
        created_at: 2,
        updated_at: 2,
      })
      .execute();
    const res = await api.get('/api/admin/stores?sort=name&limit=50');
    expect(res.status, res.text).toBe(200);
    const names = (res.body.data.results as { name: unknown }[]).map((r) => r.name);
    expect(names).toContainEqual({ type: 'Buffer', data: [...Buffer.from('二进制门店')] });
    expect(names).toContain('朝阳门店');
  });
});
