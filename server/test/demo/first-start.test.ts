/**
 * The server's side of the demo package: a first start with WANXIANG_DEMO on writes the content
 * through server/src/demo-store.ts — the real engine (passwords hashed by its hook, rows as the
 * report counts them) and the real blob store. That a restart writes nothing more, and that the
 * files are served, is files.test.ts's part.
 */
import { existsSync } from 'node:fs';
import { getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { blobIdOf, blobPath } from '../../src/files/blob-store.js';
import { modelOf } from '../../src/resources/storage.js';
import { createTestDatabase, startTestApp } from '../helpers/app.js';

describe('first start writes the demo content through the engine', () => {
  it('counts what it wrote, hashes the customers’ passwords and stores the files', async () => {
    const db = await createTestDatabase('sqlite');
    const t = await startTestApp('sqlite', { db, config: { demoContent: true } });
    try {
      const report = t.app.demoContent;
      expect(report?.seeded).toBe(true);
      const counts = report?.counts ?? {};
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(40_000);
      for (const name of ['orders', 'orderHistory', 'stores', 'photos']) {
        const row = await t.app.db
          .selectFrom(modelOf(getResource(name)).table as 'users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(row.n), name).toBe(counts[name]);
      }
      const customers = await t.app.db
        .selectFrom('users')
        .select(['username', 'password_hash'])
        .where('username', 'not in', ['admin', 'operator', 'editor', 'guest'])
        .limit(5)
        .execute();
      expect(customers).toHaveLength(5);
      for (const c of customers) expect(c.password_hash, c.username).toMatch(/^\$argon2id\$/);
      const photo = await t.app.db
        .selectFrom(modelOf(getResource('photos')).table as 'users')
        .selectAll()
        .limit(1)
        .executeTakeFirstOrThrow();
      const id = blobIdOf((photo as Record<string, unknown>).image as string);
      expect(id && existsSync(blobPath(t.config.dataDir, id) as string)).toBe(true);
    } finally {
      await t.app.close();
      await db.drop();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('first start on PostgreSQL', () => {
  it('takes the planner’s statistics of the tables it just wrote', async () => {
    const db = await createTestDatabase('postgres');
    const t = await startTestApp('postgres', { db, config: { demoContent: true } });
    try {
      expect(t.app.demoContent?.seeded).toBe(true);
      // Statistics per column exist only once the table was analyzed; the orders list's plan
      // depends on these (db/statistics.ts).
      const { rows } = await sql<{ tablename: string }>`
        select distinct tablename from pg_stats
        where schemaname = current_schema() and tablename in ('orders', 'goods', 'users', 'articles')
        order by tablename`.execute(t.app.db);
      expect(rows.map((r) => r.tablename)).toEqual(['articles', 'goods', 'orders', 'users']);
    } finally {
      await t.app.close();
      await db.drop();
    }
  });
});
