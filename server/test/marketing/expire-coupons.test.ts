/**
 * Coupons expire (domain/marketing/timers.ts), run by the server's scheduler under its lease with
 * the test's clock, and seen as an operator sees them: the coupon log (`/api/admin/userCoupons`).
 */
import { getResource } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRE_COUPONS_EVERY_MS, EXPIRE_COUPONS_TASK } from '../../src/domain/marketing/index.js';
import { readLease } from '../../src/scheduler/index.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

const MINUTE = 60_000;

describe.each(DB_KINDS)('coupons expire on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  const userCoupons = getResource('userCoupons');
  const coupon = (status: string, expiresIn: number, extra: Record<string, unknown> = {}) => ({
    userId: 1,
    source: 'manual',
    status,
    issuedAt: t.clock.now() - 7 * 24 * 60 * MINUTE,
    expiresAt: t.clock.now() + expiresIn,
    createdAt: t.clock.now() - 7 * 24 * 60 * MINUTE,
    updatedAt: t.clock.now() - MINUTE,
    ...extra,
  });
  const listed = async (query: string) => {
    const res = await api.get(`/api/admin/userCoupons?limit=100&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as {
      results: Array<{ id: number; status: string; updatedAt: string }>;
      page: { total: number };
    };
  };
  /** The list's total, from a full page of one row: counted, and cached as the engine caches it. */
  const total = async (query: string) => {
    const res = await api.get(`/api/admin/userCoupons?limit=1&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.page.total as number;
  };
  const statusOf = async (ids: number[]) => {
    const rows = (await listed('')).results;
    return ids.map((id) => rows.find((r) => r.id === id)?.status);
  };
  /** What the scheduler does when its timer fires at the clock's time. */
  const tick = async () => {
    await t.app.scheduler.tick();
    await t.app.scheduler.idle();
  };

  it('marks unused coupons whose time has come as expired, once a period, and the list shows it at once', async () => {
    const ids = (await t.app.resources.insertRows(userCoupons, [
      coupon('unused', -MINUTE),
      coupon('unused', 0),
      coupon('unused', 30_000),
      coupon('used', -MINUTE, { usedAt: t.clock.now() - 2 * MINUTE }),
      coupon('expired', -2 * MINUTE),
    ])) as number[];
    const [past, , future, used] = ids as [number, number, number, number, number];
    // Read once first: the totals and the list rows are cached from here on.
    expect(await total('status=expired')).toBe(1);
    expect(await statusOf(ids)).toEqual(['unused', 'unused', 'unused', 'used', 'expired']);

    await tick();
    // The moment itself counts: a coupon is usable while now < expiresAt.
    expect(await statusOf(ids)).toEqual(['expired', 'expired', 'unused', 'used', 'expired']);
    expect(await total('status=expired')).toBe(3);
    const rows = (await listed('')).results;
    expect(rows.find((r) => r.id === past)?.updatedAt).toBe(new Date(t.clock.now()).toISOString());
    expect(rows.find((r) => r.id === used)?.updatedAt).toBe(new Date(t.clock.now() - MINUTE).toISOString());
    const lease = await readLease(t.app.db, EXPIRE_COUPONS_TASK);
    expect(lease).toMatchObject({
      holder: t.app.scheduler.holder,
      expiresAt: t.clock.now() + EXPIRE_COUPONS_EVERY_MS,
      lastError: null,
    });

    // `future` comes due 30 s later, but the next run is a period after the last.
    t.clock.advance(30_000);
    await tick();
    expect(await statusOf([future])).toEqual(['unused']);
    t.clock.advance(EXPIRE_COUPONS_EVERY_MS - 30_000);
    await tick();
    expect(await statusOf([future])).toEqual(['expired']);
    expect(await total('status=expired')).toBe(4);
  });

  it('expires any number of coupons in batches, in one run', async () => {
    const before = await total('status=expired');
    await t.app.resources.insertRows(
      userCoupons,
      Array.from({ length: 2_345 }, () => coupon('unused', -1)),
      { returnIds: false },
    );
    await t.app.scheduler.runBody(EXPIRE_COUPONS_TASK);
    expect(await total('status=unused')).toBe(0);
    expect(await total('status=expired')).toBe(before + 2_345);
  });
});
