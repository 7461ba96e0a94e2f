/**
 * List rows' JSON kept by (table, id, updated_at) on SQLite and PostgreSQL (row-cache.ts): a list answers what
 * the database holds now — every write that moves `updated_at` shows at once, in the page's
 * order — and the kept rows are the same bytes as rows written afresh.
 */
import { getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextUpdatedAt } from '../../src/resources/actions.js';
import { COUNT_TTL_MS } from '../../src/resources/counts.js';
import { RowCache } from '../../src/resources/row-cache.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi, seedOrders } from './helpers.js';

describe('RowCache', () => {
  const row = (text: string) => Buffer.from(text);

  it('answers a row only for the version it was kept with, and only within the TTL', () => {
    const cache = new RowCache({ maxBytes: 1000, ttlMs: 100 });
    cache.set('orders', 1, 500, row('{"id":1}'), 0);
    expect(cache.get('orders', 1, 500, 99)?.toString()).toBe('{"id":1}');
    expect(cache.get('orders', 1, 501, 50)).toBeUndefined();
    expect(cache.get('stores', 1, 500, 50)).toBeUndefined();
    expect(cache.get('orders', 1, 500, 100)).toBeUndefined();
  });

  it('holds at most maxBytes, letting the oldest rows go first', () => {
    const cache = new RowCache({ maxBytes: 40, ttlMs: 1000, maxRowBytes: 40 });
    for (let id = 1; id <= 4; id++) cache.set('orders', id, 1, row(`{"id":${id},"x":"abc"}`), 0);
    // 18 bytes a row: the newest two fit.
    expect(cache.bytes).toBe(36);
    expect([1, 2, 3, 4].map((id) => cache.get('orders', id, 1, 0) !== undefined)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    // A new version of a row replaces its old one.
    cache.set('orders', 4, 2, row('{"id":4}'), 0);
    expect(cache.bytes).toBe(18 + 8);
    expect(cache.get('orders', 4, 1, 0)).toBeUndefined();
    expect(cache.get('orders', 4, 2, 0)?.toString()).toBe('{"id":4}');
  });

  it('keeps a row in memory of its own, not a slice of a shared slab', () => {
    const cache = new RowCache({ maxBytes: 1000, ttlMs: 1000 });
    // A small Buffer.from is a slice of Node's shared 8 KB pool: kept as it is, the whole slab
    // would stay alive with it (own-memory.ts).
    const pooled = row('{"id":1}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    cache.set('orders', 1, 1, pooled, 0);
    const kept = cache.get('orders', 1, 1, 0);
    expect(kept?.toString()).toBe('{"id":1}');
    expect(kept?.buffer.byteLength).toBe(kept?.length);
  });

  it('does not keep a row larger than maxRowBytes', () => {
    const cache = new RowCache({ maxBytes: 1000, ttlMs: 1000, maxRowBytes: 10 });
    cache.set('docs', 1, 1, row('{"content":"很长的正文"}'), 0);
    expect(cache.get('docs', 1, 1, 0)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

describe.each(DB_KINDS)('lists through the row cache (%s)', (kind) => {
  let t: TestApp;
  let api: Api;
  let ids: number[];
  let storeA: number;
  let storeB: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    ({ ids, storeA, storeB } = await seedOrders(t, 30));
  });
  afterAll(async () => t?.close());

  const page = async (query = '') => {
    const res = await api.get(`/api/admin/orders?limit=10${query}`);
    expect(res.status, res.text).toBe(200);
    return res;
  };
  const rowOf = (body: { data: { results: { id: number }[] } }, id: number) =>
    body.data.results.find((r) => r.id === id) as Record<string, unknown>;

  it('answers the same bytes from kept rows as from rows written afresh, and what the engine reads', async () => {
    const first = await page();
    const again = await page();
    expect(again.text).toBe(first.text);
    const engine = await t.app.resources.list(getResource('orders'), { limit: '10' });
    expect(first.body.data.results).toEqual(JSON.parse(JSON.stringify(engine.results)));
  });

  it('shows an edit through the API at once, in the same place of the page', async () => {
    const before = await page();
    const order = ids.at(-3) as number;
    const edited = await api.patch(`/api/admin/orders/${order}`, { remark: '少放辣' });
    expect(edited.status, edited.text).toBe(200);
    const after = await page();
    expect(after.body.data.results.map((r: { id: number }) => r.id)).toEqual(
      before.body.data.results.map((r: { id: number }) => r.id),
    );
    expect(rowOf(after.body, order).remark).toBe('少放辣');
    expect(rowOf(after.body, order).updatedAt).not.toBe(rowOf(before.body, order).updatedAt);
  });

  it('shows an action (a status step) at once', async () => {
    const paid = (await page('&status=paid')).body.data.results[0] as { id: number };
    // The newest paid order is on the first page of all orders too, kept from this read.
    expect(rowOf((await page()).body, paid.id)).toMatchObject({ status: 'paid', acceptedAt: null });
    const accepted = await api.post(`/api/admin/orders/${paid.id}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(rowOf((await page()).body, paid.id)).toMatchObject({
      status: 'accepted',
      acceptedAt: new Date(t.clock.now()).toISOString(),
    });
    const paidNow = (await page('&status=paid')).body.data.results.map((r: { id: number }) => r.id);
    expect(paidNow).not.toContain(paid.id);
    const acceptedNow = (await page('&status=accepted')).body.data.results;
    expect(rowOf({ data: { results: acceptedNow } }, paid.id)).toMatchObject({ status: 'accepted' });
  });

  it('shows a write outside the engine that moves updated_at at once', async () => {
    const order = ids.at(-1) as number;
    await page();
    await sql`update orders set remark = ${'门口放下即可'}, updated_at = ${nextUpdatedAt(t.clock.now())} where id = ${order}`.execute(
      t.app.db,
    );
    expect(rowOf((await page()).body, order).remark).toBe('门口放下即可');
  });

  it('shows a write that leaves updated_at alone after the TTL, not before', async () => {
    const order = ids.at(-2) as number;
    await page();
    await sql`update orders set remark = ${'不要餐具'} where id = ${order}`.execute(t.app.db);
    // Kept from the page above: the row's version did not change.
    expect(rowOf((await page()).body, order).remark).not.toBe('不要餐具');
    t.clock.advance(COUNT_TTL_MS);
    expect(rowOf((await page()).body, order).remark).toBe('不要餐具');
  });

  it('with LIST_ROW_CACHE_MB=0 writes every row afresh: such a write shows at once', async () => {
    const uncached = await startTestApp(kind, { config: { listRowCacheBytes: 0 } });
    try {
      const { ids: orders } = await seedOrders(uncached, 3);
      const as = await adminApi(uncached);
      const order = orders[0] as number;
      const remark = async () =>
        ((await as.get('/api/admin/orders')).body.data.results as { id: number; remark: string }[]).find(
          (r) => r.id === order,
        )?.remark;
      expect(await remark()).toBeNull();
      await sql`update orders set remark = ${'不要餐具'} where id = ${order}`.execute(uncached.app.db);
      expect(await remark()).toBe('不要餐具');
    } finally {
      await uncached.close();
    }
  });

  it('drops a (soft) deleted row from the page at once', async () => {
    const stores = async () =>
      ((await api.get('/api/admin/stores')).body.data.results as { id: number }[]).map((r) => r.id);
    // A store without orders or goods on sale (one with them is not deleted: domain/oms).
    const created = await api.post('/api/admin/stores', {
      name: '待关闭门店',
      phone: '010-12345679',
      address: '北京市西城区 1 号',
    });
    expect(created.status, created.text).toBe(200);
    const spare = created.body.data.id as number;
    expect(await stores()).toContain(spare);
    const removed = await api.del(`/api/admin/stores/${spare}`);
    expect(removed.status, removed.text).toBe(200);
    expect(await stores()).toEqual([storeB, storeA]);
  });
});
