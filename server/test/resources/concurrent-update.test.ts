/**
 * A PATCH that claims no version (no If-Match, no updatedAt) is not a stale update, even when
 * another transaction changes the row while it runs. On PostgreSQL the row is read locked
 * (engine.ts `currentRow`): before, the conditional UPDATE found the version moved under it and
 * answered 409 数据已被他人修改 — seen as errors under 64 connections (bench/load.ts). SQLite
 * runs one write transaction at a time, so only PostgreSQL can interleave them.
 */
import { getResource } from '@wanxiang/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminApi } from './helpers.js';

const PG_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG_URL)('an update racing another transaction on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('waits for the other write and applies its change instead of answering 409', async () => {
    const api = await adminApi(t);
    const [id] = await t.app.resources.insertRows(getResource('stores'), [
      { name: '并发测试店', phone: '010-12345678', address: '北京市朝阳区建国路 1 号' },
    ]);
    if (t.db.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    const other = new pg.Client({ connectionString: t.db.database.url });
    await other.connect();
    try {
      // Another process changes the row and has not committed yet.
      await other.query('begin');
      await other.query('update stores set phone = $1, updated_at = updated_at + 1 where id = $2', [
        '010-87654321',
        id,
      ]);
      const patch = api.patch(`/api/admin/stores/${id}`, { name: '并发测试店（改）' });
      // Until the PATCH waits on the row's lock (it must not have answered yet).
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await other.query(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%stores%'`,
        );
        if (rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error('the PATCH never waited on the row');
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query('commit');
      const answer = await patch;
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ name: '并发测试店（改）', phone: '010-87654321' });
    } finally {
      await other.end();
    }
  });
});
