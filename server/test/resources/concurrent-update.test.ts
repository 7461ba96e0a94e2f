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
import { modelOf } from '../../src/resources/storage.js';
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
    const tags = getResource('bbsTags');
    const table = modelOf(tags).table;
    const [id] = await t.app.resources.insertRows(tags, [{ name: '并发', color: 'blue' }]);
    if (t.db.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    // A first write builds what the area's writes share (its first answer may take seconds).
    expect((await api.patch(`/api/admin/bbsTags/${id}`, { name: '并发预热' })).status).toBe(200);
    const other = new pg.Client({ connectionString: t.db.database.url });
    await other.connect();
    try {
      // Another process changes the row and has not committed yet.
      await other.query('begin');
      await other.query(`update ${table} set color = $1, updated_at = updated_at + 1 where id = $2`, [
        'red',
        id,
      ]);
      const patch = api.patch(`/api/admin/bbsTags/${id}`, { name: '并发（改）' });
      // Until the PATCH waits on the row's lock (it must not have answered yet).
      const deadline = Date.now() + 10_000;
      for (;;) {
        // Any session of this test's own database waiting on a lock is the PATCH's (the text
        // shown beside a lock wait may still be its transaction's `begin`).
        const { rows } = await other.query(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        );
        if (rows[0].n > 0) break;
        if (Date.now() > deadline)
          throw new Error(
            `the PATCH never waited on the row: ${JSON.stringify((await other.query(`select state, wait_event_type, wait_event, left(query, 120) as q from pg_stat_activity where datname = current_database() and state <> 'idle'`)).rows)}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query('commit');
      const answer = await patch;
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ name: '并发（改）', color: 'red' });
    } finally {
      await other.end();
    }
  });
});
