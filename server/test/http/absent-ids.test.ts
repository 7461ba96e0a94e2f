/**
 * An id no row can have answers as an absent one does (404 with the resource's message), on both
 * databases. PostgreSQL's ids are `integer` (up to 2 147 483 647): compared with a larger number
 * it refused the statement (numeric_value_out_of_range, 422 数值超出范围) where SQLite found no row
 * (404) — the fuzz's one answer that differed between the two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

const BEYOND = ['2147483648', '999999999999999'];

describe.each(DB_KINDS)('ids beyond any row on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  it.each(BEYOND)('a resource’s row %s: read, changed and deleted answer 404', async (id) => {
    for (const res of [
      await api.get(`/api/admin/orders/${id}`),
      await api.patch(`/api/admin/goods/${id}`, { name: '不存在' }),
      await api.del(`/api/admin/goods/${id}`),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.message).toMatch(/不存在/);
    }
  });

  it.each(BEYOND)('a monitor job %s of one’s own: read, paused and deleted answer 404', async (id) => {
    for (const res of [
      await api.get(`/api/me/jobs/${id}`),
      await api.post(`/api/me/jobs/${id}/pause`, {}),
      await api.del(`/api/me/jobs/${id}`),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.message).toBe('监控任务不存在或已删除');
    }
  });
});
