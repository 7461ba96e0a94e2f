/** Coupon templates and users for the marketing tests, made through the admin API as an operator would. */
import { getResource } from '@wanxiang/core';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { Api } from '../resources/helpers.js';

export const CASH = {
  name: '满 30 减 5',
  kind: 'cash',
  valueFen: 500,
  thresholdFen: 3000,
  validity: 'relative',
  validDays: 7,
  totalQty: 0,
  perUserLimit: 1,
};

export async function createTemplate(api: Api, over: Record<string, unknown> = {}): Promise<number> {
  const res = await api.post('/api/admin/couponTemplates', { ...CASH, ...over });
  expect(res.status, res.text).toBe(200);
  return res.body.data.id as number;
}

/** `count` customers written through the engine (no sign-in needed for being given a coupon). */
export async function createUsers(t: TestApp, count: number, prefix = 'c'): Promise<number[]> {
  return t.app.resources.insertRows(
    getResource('users'),
    Array.from({ length: count }, (_, i) => ({
      username: `${prefix}${i + 1}`,
      password: 'Customer#2025',
      phone: `1380000${String(i + 1).padStart(4, '0')}`,
      roles: [],
    })),
  );
}

export async function template(api: Api, id: number) {
  const res = await api.get(`/api/admin/couponTemplates/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Record<string, unknown>;
}

export async function couponsOf(api: Api, filters: string) {
  const res = await api.get(`/api/admin/userCoupons?${filters}&limit=500`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.results as Record<string, unknown>[];
}
