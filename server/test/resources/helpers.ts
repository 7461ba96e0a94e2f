/** Calling the admin API as a signed-in user, as the UI and the CLI do. */
import { getResource } from '@wanxiang/core';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ADMIN_PASSWORD, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';

export interface Api {
  token: string;
  get(url: string, headers?: Record<string, string>): Promise<Answer>;
  post(url: string, payload?: unknown, headers?: Record<string, string>): Promise<Answer>;
  patch(url: string, payload: unknown, headers?: Record<string, string>): Promise<Answer>;
  put(url: string, payload: unknown): Promise<Answer>;
  del(url: string): Promise<Answer>;
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in assertions
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

async function call(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const res = await app.inject(options);
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    body = null;
  }
  return { status: res.statusCode, body, headers: res.headers, text: res.body };
}

export function apiAs(app: FastifyInstance, token: string): Api {
  const auth = bearer(token);
  return {
    token,
    get: (url, headers = {}) => call(app, { method: 'GET', url, headers: { ...auth, ...headers } }),
    post: (url, payload = {}, headers = {}) =>
      call(app, { method: 'POST', url, payload: payload as object, headers: { ...auth, ...headers } }),
    patch: (url, payload, headers = {}) =>
      call(app, { method: 'PATCH', url, payload: payload as object, headers: { ...auth, ...headers } }),
    put: (url, payload) => call(app, { method: 'PUT', url, payload: payload as object, headers: auth }),
    del: (url) => call(app, { method: 'DELETE', url, headers: auth }),
  };
}

export async function adminApi(t: TestApp): Promise<Api> {
  return apiAs(t.app, await tokenOf(t.app, 'admin', ADMIN_PASSWORD));
}

export async function userId(t: TestApp, username: string): Promise<number> {
  const row = await t.app.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Stores, a customer and `count` orders across statuses, written through the engine's bulk insert. */
export async function seedOrders(t: TestApp, count: number) {
  const [storeA, storeB] = await t.app.resources.insertRows(getResource('stores'), [
    { name: '朝阳门店', phone: '010-12345678', address: '北京市朝阳区建国路 1 号', status: 'open' },
    { name: '海淀门店', phone: '010-87654321', address: '北京市海淀区中关村大街 2 号', status: 'paused' },
  ]);
  const customer = await userId(t, 'guest');
  const statuses = ['pending_payment', 'paid', 'accepted', 'completed', 'cancelled'] as const;
  const base = Date.UTC(2025, 0, 1, 0, 0, 0);
  const rows = Array.from({ length: count }, (_, i) => ({
    orderNo: `NO${String(i + 1).padStart(6, '0')}`,
    storeId: i % 2 === 0 ? storeA : storeB,
    userId: customer,
    items: [{ goodsId: 1, name: '宫保鸡丁', qty: 1 + (i % 3), unitPriceFen: 2800 }],
    payableFen: 1000 + i * 10,
    paidFen: 1000 + i * 10,
    payMethod: 'wechat',
    fulfilment: i % 3 === 0 ? 'pickup' : 'delivery',
    status: statuses[i % statuses.length],
    // Paid orders carry a payment time; unpaid ones none (NULLs in a sort column).
    paidAt: i % statuses.length === 0 ? null : base + i * 60_000 + 30_000,
    address: i % 4 === 0 ? '北京市朝阳区望京街 9 号' : '上海市浦东新区世纪大道 100 号',
    // One minute apart, the first order oldest.
    createdAt: base + i * 60_000,
  }));
  const ids = await t.app.resources.insertRows(getResource('orders'), rows);
  return { storeA: storeA as number, storeB: storeB as number, customer, ids };
}
