/**
 * The food-ordering catalogue's referential rules: a good's category must be of its own store
 * (checked in the write's transaction, on create and on update), and a store with goods on sale
 * or unfinished orders cannot be deleted — the refusal says what blocks it.
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi, userId } from '../resources/helpers.js';

describe.each(DB_KINDS)('catalogue rules on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let storeA: number;
  let storeB: number;
  let categoryA: number;
  let categoryB: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    [storeA, storeB] = (await t.app.resources.insertRows(getResource('stores'), [
      { name: '一号店', phone: '010-11111111', address: '北京市朝阳区 1 号', status: 'open' },
      { name: '九号店', phone: '010-99999999', address: '北京市海淀区 9 号', status: 'open' },
    ])) as [number, number];
    [categoryA, categoryB] = (await t.app.resources.insertRows(getResource('goodsCategories'), [
      { storeId: storeA, name: '热菜' },
      { storeId: storeB, name: '凉菜' },
    ])) as [number, number];
  });
  afterAll(async () => t?.close());

  const good = (over: Record<string, unknown>) => ({ name: '宫保鸡丁', priceFen: 2800, ...over });

  it('refuses a good in store 9 with a category of store 1: 所选分类不属于该门店', async () => {
    const res = await api.post('/api/admin/goods', good({ storeId: storeB, categoryId: categoryA }));
    expect(res.status).toBe(422);
    expect(res.body.data.fields).toEqual({ categoryId: '所选分类不属于该门店' });
    const goods = await api.get(`/api/admin/goods?storeId=${storeB}`);
    expect(goods.body.data.results).toHaveLength(0);
    const ok = await api.post('/api/admin/goods', good({ storeId: storeB, categoryId: categoryB }));
    expect(ok.status, ok.text).toBe(200);
  });

  it('checks an update against the stored row: moving a good to another store keeps its category', async () => {
    const created = await api.post(
      '/api/admin/goods',
      good({ name: '拍黄瓜', storeId: storeB, categoryId: categoryB }),
    );
    const id = created.body.data.id as number;
    const moved = await api.patch(`/api/admin/goods/${id}`, { storeId: storeA });
    expect(moved.status).toBe(422);
    expect(moved.body.data.fields).toEqual({ categoryId: '所选分类不属于该门店' });
    const both = await api.patch(`/api/admin/goods/${id}`, { storeId: storeA, categoryId: categoryA });
    expect(both.status, both.text).toBe(200);
  });

  it('checks an update on what it changes: stock saved even when the category has since moved store', async () => {
    const [category] = (await t.app.resources.insertRows(getResource('goodsCategories'), [
      { storeId: storeB, name: '汤品' },
    ])) as [number];
    const created = await api.post(
      '/api/admin/goods',
      good({ name: '酸辣汤', storeId: storeB, categoryId: category }),
    );
    const id = created.body.data.id as number;
    // The category moved to the other store afterwards (by hand in the database).
    await t.app.db
      .updateTable('goods_categories' as never)
      .set({ store_id: storeA } as never)
      .where('id' as never, '=', category as never)
      .execute();
    const stock = await api.patch(`/api/admin/goods/${id}`, { stock: 5 });
    expect(stock.status, stock.text).toBe(200);
    expect(stock.body.data.stock).toBe(5);
    // Choosing the category again is checked, and refused.
    const again = await api.patch(`/api/admin/goods/${id}`, { categoryId: category, name: '酸辣汤（大）' });
    expect(again.status).toBe(422);
    expect(again.body.data.fields).toEqual({ categoryId: '所选分类不属于该门店' });
  });

  it('refuses deleting a store with goods on sale and unfinished orders, saying how many', async () => {
    const [store] = await t.app.resources.insertRows(getResource('stores'), [
      { name: '忙碌店', phone: '010-22222222', address: '北京市东城区 2 号', status: 'open' },
    ]);
    const [category] = await t.app.resources.insertRows(getResource('goodsCategories'), [
      { storeId: store, name: '主食' },
    ]);
    await t.app.resources.insertRows(getResource('goods'), [
      { storeId: store, categoryId: category, name: '米饭', priceFen: 200, status: 'onSale' },
      { storeId: store, categoryId: category, name: '馒头', priceFen: 100, status: 'onSale' },
      { storeId: store, categoryId: category, name: '花卷', priceFen: 100, status: 'onSale' },
      { storeId: store, categoryId: category, name: '下架饼', priceFen: 100, status: 'offSale' },
    ]);
    const customer = await userId(t, 'guest');
    const order = (no: string, status: string) => ({
      orderNo: no,
      storeId: store,
      userId: customer,
      items: [{ goodsId: 1, name: '米饭', qty: 1, unitPriceFen: 200 }],
      payableFen: 200,
      paidFen: 200,
      payMethod: 'wechat',
      fulfilment: 'pickup',
      status,
    });
    const orders = await t.app.resources.insertRows(getResource('orders'), [
      order('BUSY01', 'paid'),
      order('BUSY02', 'preparing'),
      order('BUSY03', 'completed'),
      order('BUSY04', 'cancelled'),
    ]);
    const refused = await api.del(`/api/admin/stores/${store}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('门店还有 3 个在售商品、2 个未完成订单，不能删除');
    expect((await api.get(`/api/admin/stores/${store}`)).status).toBe(200);

    // Taken off sale and the orders finished, it goes.
    await t.app.db
      .updateTable('goods' as never)
      .set({ status: 'offSale' } as never)
      .execute();
    const onlyOrders = await api.del(`/api/admin/stores/${store}`);
    expect(onlyOrders.body.message).toBe('门店还有 2 个未完成订单，不能删除');
    await t.app.db
      .updateTable('orders' as never)
      .set({ status: 'completed' } as never)
      .where('id' as never, 'in', orders as never)
      .execute();
    const deleted = await api.del(`/api/admin/stores/${store}`);
    expect(deleted.status, deleted.text).toBe(200);
  });
});
