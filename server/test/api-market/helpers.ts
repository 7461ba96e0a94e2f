/** An API, a plan and customers with a balance for the API-market tests, made through the admin API. */
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { createUsers } from '../marketing/helpers.js';
import { type Api, apiAs } from '../resources/helpers.js';

export async function createApi(api: Api, code = 'palette'): Promise<number> {
  const res = await api.post('/api/admin/marketApis', {
    code,
    name: `配色 ${code}`,
    method: 'GET',
    handler: 'palette',
    freeQuota: 10,
    rateLimitPerMin: 60,
    status: 'enabled',
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data.id as number;
}

export async function createPlan(
  api: Api,
  apiId: number,
  over: Record<string, unknown> = {},
): Promise<number> {
  const res = await api.post('/api/admin/apiPlans', {
    apiId,
    name: '1 万次',
    calls: 10_000,
    periodDays: 30,
    priceFen: 9900,
    status: 'enabled',
    ...over,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data.id as number;
}

export async function credit(api: Api, userId: number, changeFen: number): Promise<void> {
  const res = await api.post('/api/admin/balanceLedger/adjust', { userId, changeFen, note: '测试充值' });
  expect(res.status, res.text).toBe(200);
}

/** Customers (no roles) and an API client signed in as each. */
export async function customers(t: TestApp, count: number, prefix: string) {
  const ids = await createUsers(t, count, prefix);
  const apis = await Promise.all(
    ids.map(async (_, i) => apiAs(t.app, await tokenOf(t.app, `${prefix}${i + 1}`, 'Customer#2025'))),
  );
  return ids.map((id, i) => ({ id, api: apis[i] as Api }));
}

export async function balanceOf(api: Api, userId: number): Promise<number> {
  return (await api.get(`/api/admin/users/${userId}`)).body.data.balanceFen as number;
}

/** One customer with a signed-in client. */
export async function customer(t: TestApp, prefix: string) {
  const [one] = await customers(t, 1, prefix);
  if (!one) throw new Error('no customer made');
  return one;
}
