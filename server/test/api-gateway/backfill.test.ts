/**
 * Calls metered without roll-ups (the demo seeder's week, rows from before migration 0016) get
 * their daily roll-ups from the retention task's first run, so the charts show them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillCallDays } from '../../src/domain/api-gateway/housekeeping.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { adminApi } from '../resources/helpers.js';
import { addApi, addKey, anyDb, userIdOf } from './fixture.js';

describe.each(DB_KINDS)('api call roll-up backfill on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('rolls up plain api_calls rows by key, API and China day, once', async () => {
    const api = await addApi(t, { code: 'pback', handler: 'palette' });
    const k = await addKey(t, await userIdOf(t, 'guest'));
    const now = t.clock.now(); // 2025-01-01 16:00 China time
    const rows = [
      { status: 'ok', latency: 10, at: now },
      { status: 'error', latency: 30, at: now - 3_600_000 },
      { status: 'noQuota', latency: 1, at: now - 86_400_000 },
    ];
    for (const r of rows)
      await anyDb(t)
        .insertInto('api_calls')
        .values({
          created_at: r.at,
          updated_at: r.at,
          key_id: k.id,
          api_id: api,
          status: r.status,
          http_status: 200,
          latency_ms: r.latency,
          at: r.at,
        })
        .execute();
    expect(await backfillCallDays(anyDb(t))).toBe(3);
    expect(await backfillCallDays(anyDb(t))).toBe(0);
    const admin = await adminApi(t);
    const stats = await admin.get(`/api/admin/apiKeys/${k.id}/stats?days=2`);
    expect(stats.body.data.days).toEqual([
      {
        day: '2024-12-31',
        calls: 1,
        ok: 0,
        errors: 0,
        rateLimited: 0,
        noQuota: 1,
        latencyAvgMs: 1,
        latencyMaxMs: 1,
      },
      {
        day: '2025-01-01',
        calls: 2,
        ok: 1,
        errors: 1,
        rateLimited: 0,
        noQuota: 0,
        latencyAvgMs: 20,
        latencyMaxMs: 30,
      },
    ]);
  });
});
