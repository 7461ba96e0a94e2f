import { collectionActions, RESOURCES, rowActions } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('the generic routes in the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { config: { demoUsers: false } });
  });
  afterAll(async () => t?.close());

  it('lists every resource with its list, export, row, create, update, delete and actions', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const def of RESOURCES) {
      const base = `/api/admin/${def.name}`;
      expect(Object.keys(doc.paths[base] ?? {}).sort(), base).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths[`${base}/{id}`] ?? {}).sort(), base).toEqual(['delete', 'get', 'patch']);
      expect(doc.paths[`${base}/export`]?.get, base).toBeDefined();
      if (rowActions(def).length > 0) expect(doc.paths[`${base}/{id}/{action}`]?.post, base).toBeDefined();
      if (collectionActions(def).length > 0) expect(doc.paths[`${base}/{action}`]?.post, base).toBeDefined();
    }
    const list = doc.paths['/api/admin/orders'].get;
    expect(list.summary).toBe('订单：列表');
    const params = list.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(
      expect.arrayContaining([
        'page',
        'limit',
        'sort',
        'q',
        'cursor',
        'status',
        'status_in',
        'payableFen_gte',
      ]),
    );
    const row =
      list.responses['200'].content['application/json'].schema.properties.data.properties.results.items;
    expect(row.properties.status).toMatchObject({
      type: 'string',
      title: '状态',
      enum: expect.arrayContaining(['paid']),
    });
    const create = doc.paths['/api/admin/stores'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(['name', 'phone', 'address']);
    expect(create.properties).not.toHaveProperty('status');
    // Orders are created by the orders area from a cart: the document shows that body.
    const order = doc.paths['/api/admin/orders'].post.requestBody.content['application/json'].schema;
    expect(order.required).toEqual(expect.arrayContaining(['storeId', 'items', 'fulfilment', 'payMethod']));
    expect(order.properties.items.items.properties).toHaveProperty('goodsId');
    expect(
      doc.paths['/api/admin/orders/price'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('points');
    const users = doc.paths['/api/admin/users/{id}'].get.responses['200'].content['application/json'].schema;
    expect(users.properties.data.properties).not.toHaveProperty('password');
  });
});
