/**
 * Backup and restore through the real routes (domain/backup), on each database:
 *
 * - a backup taken while several clients place and pay orders and adjust balances is one
 *   consistent moment: restored, its row counts are the manifest's and every ledger balances;
 * - after changes (a renamed store, more orders, a balance moved, the uploaded file gone from
 *   the disk) a restore brings back exactly the backup's data: counts, chosen rows, the image's
 *   bytes, and list totals that were cached before the restore are not served after it;
 * - a corrupted or truncated archive, one from the other database, one from a newer migration:
 *   422 in Chinese and nothing changed;
 * - someone without the platform-config permission: 403.
 */
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateToLatest } from '../../src/db/migrate.js';
import { blobPath } from '../../src/files/blob-store.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';
import { anyDb, type OrderWorld, orderWorld, placeOrder } from '../orders/fixture.js';
import { type Api, adminApi, apiAs } from '../resources/helpers.js';
import { ledgerProblems, readMembers, rowCounts, withManifest } from './helpers.js';

const BOUNDARY = '----wanxiang-backup-test';

function imageForm(png: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe.each(DB_KINDS)('backup and restore on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  let png: Buffer;
  let imageUrl: string;

  const backup = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/backup', headers: bearer(api.token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };
  const restore = (archive: Buffer, token = api.token) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/restore',
      headers: { ...bearer(token), 'content-type': 'application/gzip' },
      payload: archive,
    });
  const manifestOf = async (archive: Buffer) => {
    const members = await readMembers(archive);
    const m = members.find((x) => x.name === 'manifest.json');
    if (!m) throw new Error('no manifest');
    return JSON.parse(m.data.toString('utf8')) as {
      dialect: string;
      migration: string;
      tables: Record<string, number>;
      files: Record<string, { sha256: string }>;
    };
  };
  const storeName = async () => (await api.get(`/api/admin/stores/${w.storeId}`)).body.data.name as string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t);
    const credit = await api.post('/api/admin/balanceLedger/adjust', {
      userId: w.customer,
      changeFen: 5_000_000,
      note: '备份测试充值',
    });
    expect(credit.status, credit.text).toBe(200);
    png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#d53a7b' } })
      .png()
      .toBuffer();
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads?resource=photos',
      headers: { ...bearer(api.token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: imageForm(png),
    });
    expect(up.statusCode, up.body).toBe(200);
    imageUrl = up.json().data.url as string;
  });
  afterAll(async () => t?.close());

  it('backs up consistently under a write load and restores exactly what the backup held', async () => {
    const first = await placeOrder(api, w);
    expect((await api.post(`/api/admin/orders/${first.id}/pay`, { payMethod: 'balance' })).status).toBe(200);
    const firstOrder = (await api.get(`/api/admin/orders/${first.id}`)).body.data;
    const name = await storeName();

    // Four clients writing (orders placed and paid, balances adjusted) while the backup runs.
    let writing = true;
    let writes = 0;
    const client = async (n: number) => {
      while (writing) {
        const order = await placeOrder(api, w);
        const paid = await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'balance' });
        expect(paid.status, paid.text).toBe(200);
        const moved = await api.post('/api/admin/balanceLedger/adjust', {
          userId: w.customer,
          changeFen: n % 2 === 0 ? 300 : -200,
          note: `负载 ${n}`,
        });
        expect(moved.status, moved.text).toBe(200);
        writes++;
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    const until = Date.now() + 10_000;
    while (writes < 4 && Date.now() < until) await new Promise((r) => setImmediate(r));
    const archive = await backup();
    const atBackup = writes;
    while (writes < atBackup + 4 && Date.now() < until) await new Promise((r) => setImmediate(r));
    writing = false;
    await Promise.all(clients);
    expect(writes).toBeGreaterThan(atBackup);

    const manifest = await manifestOf(archive);
    expect(manifest.dialect).toBe(kind);
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining([kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump']),
    );
    expect(Object.keys(manifest.files).some((f) => f.startsWith('uploads/'))).toBe(true);

    // Changes after the backup: the store renamed, more orders, money moved, the file lost.
    const ordersTotalBefore = (await api.get('/api/admin/orders?limit=1')).body.data.page.total as number;
    expect((await api.patch(`/api/admin/stores/${w.storeId}`, { name: '改名之后的店' })).status).toBe(200);
    const late = await placeOrder(api, w);
    await api.post(`/api/admin/orders/${late.id}/pay`, { payMethod: 'balance' });
    await api.post('/api/admin/balanceLedger/adjust', {
      userId: w.customer,
      changeFen: -12345,
      note: '备份后',
    });
    const file = blobPath(t.config.dataDir, imageUrl.split('/').pop() as string) as string;
    rmSync(file);
    expect((await t.app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(404);
    // The list's total is cached now (resources/counts.ts) with the post-backup orders in it.
    expect((await api.get('/api/admin/orders?limit=1')).body.data.page.total).toBe(ordersTotalBefore + 1);

    const res = await restore(archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/^已恢复到/);

    const db = anyDb(t);
    const tables = Object.keys(manifest.tables).filter((n) => !n.startsWith('kysely_migration'));
    const counts = await rowCounts(db, tables);
    // The restore's own audit entry is the one row more.
    const expected = Object.fromEntries(tables.map((n) => [n, manifest.tables[n]]));
    expected.audit_logs = (manifest.tables.audit_logs ?? 0) + 1;
    expect(counts).toEqual(expected);
    expect(await ledgerProblems(db)).toEqual([]);
    expect(await storeName()).toBe(name);
    expect((await api.get(`/api/admin/orders/${first.id}`)).body.data).toEqual(firstOrder);
    expect((await api.get(`/api/admin/orders/${late.id}`)).status).toBe(404);
    expect((await api.get('/api/admin/orders?limit=1')).body.data.page.total).toBe(manifest.tables.orders);
    const image = await t.app.inject({ method: 'GET', url: imageUrl });
    expect(image.statusCode).toBe(200);
    expect(Buffer.compare(image.rawPayload, png)).toBe(0);
    if (kind === 'postgres') {
      // The planner has the restored tables' statistics (a dump carries none): orders by status.
      const stats = await sql<{ n: number }>`
        select count(*)::int as n from pg_stats
        where schemaname = current_schema() and tablename = 'orders' and attname = 'status'`.execute(db);
      expect(stats.rows[0]?.n).toBe(1);
    }
    // Writes are let in again.
    expect((await api.patch(`/api/admin/stores/${w.storeId}`, { name })).status).toBe(200);
  });

  describe('refuses an archive it cannot restore, changing nothing', () => {
    let archive: Buffer;
    let before: Record<string, number>;
    const tables = ['orders', 'balance_ledger', 'users', 'stores'];

    beforeAll(async () => {
      archive = await backup();
      // A change the refused restores must leave as it is.
      await placeOrder(api, w);
      before = await rowCounts(anyDb(t), tables);
    });

    const refused = async (payload: Buffer, message: RegExp) => {
      const res = await restore(payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(message);
      expect(res.json().message).toMatch(/未作任何修改/);
      expect(await rowCounts(anyDb(t), tables)).toEqual(before);
    };

    it('a corrupted archive', async () => {
      const broken = Buffer.from(archive);
      const at = Math.floor(broken.length / 2);
      broken[at] = (broken[at] as number) ^ 0xff;
      await refused(broken, /损坏|校验和/);
    });

    it('a truncated archive', async () => {
      await refused(archive.subarray(0, Math.floor(archive.length * 0.6)), /损坏|不完整/);
    });

    it('an altered member', async () => {
      const members = await readMembers(archive);
      const { writeMembers } = await import('./helpers.js');
      const db = members.find((m) => m.name.startsWith('database.'));
      if (!db) throw new Error('no database member');
      db.data = Buffer.concat([db.data, Buffer.from('x')]);
      await refused(await writeMembers(members), /校验和/);
    });

    it('an archive of the other database', async () => {
      const other = kind === 'sqlite' ? 'postgres' : 'sqlite';
      await refused(
        await withManifest(archive, (m) => {
          m.dialect = other;
        }),
        kind === 'sqlite'
          ? /备份来自 PostgreSQL，本服务使用 SQLite/
          : /备份来自 SQLite，本服务使用 PostgreSQL/,
      );
    });

    it('an archive from a newer migration', async () => {
      await refused(
        await withManifest(archive, (m) => {
          m.migration = '9999_from_the_future';
        }),
        /比本服务.*新/,
      );
    });

    it('no archive at all', async () => {
      await refused(Buffer.from('not a backup'), /损坏|不完整/);
    });
  });

  it('refuses writes with 503 维护中 while a restore runs, lets reads through, and waits for running writes', async () => {
    const archive = await backup();
    // A write already running when the restore starts: an upload whose body has not all come.
    const body = new PassThrough();
    const slowUpload = t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads?resource=photos',
      headers: { ...bearer(api.token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: body,
    });
    const form = imageForm(png);
    body.write(form.subarray(0, 20));
    const restoring = restore(archive);
    const deadline = Date.now() + 10_000;
    while (t.app.maintenance.active === null) {
      if (Date.now() > deadline) throw new Error('the restore did not start');
      await new Promise((r) => setImmediate(r));
    }
    const refused = await api.patch(`/api/admin/stores/${w.storeId}`, { name: '维护中改名' });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/^维护中/);
    expect(refused.headers['retry-after']).toBe('30');
    expect((await api.get(`/api/admin/stores/${w.storeId}`)).status).toBe(200);
    // The restore is still waiting for the upload, which then finishes normally.
    expect(t.app.maintenance.active).toBe('restore');
    body.end(form.subarray(20));
    expect((await slowUpload).statusCode).toBe(200);
    expect((await restoring).statusCode).toBe(200);
    expect(t.app.maintenance.active).toBeNull();
    expect((await api.patch(`/api/admin/stores/${w.storeId}`, { name: await storeName() })).status).toBe(200);
  });

  it('brings an older backup up to date: its missing migrations run after the restore', async () => {
    // The server as it was before its newest migration: that migration undone (its `down`), so the
    // backup's newest is the one before — whichever migrations exist when this runs.
    const names = Object.keys(MIGRATIONS);
    const newest = names.at(-1) as string;
    const previous = names.at(-2) as string;
    const undo = MIGRATIONS[newest]?.down;
    expect(undo, `${newest} has a down() for this test`).toBeTypeOf('function');
    const db = anyDb(t);
    await undo?.(t.app.db, t.app.dbDialect);
    await db.deleteFrom('kysely_migration').where('name', '=', newest).execute();
    const older = await backup();
    expect((await manifestOf(older)).migration).toBe(previous);
    // Up to date again, with a row written after the older backup was made.
    await migrateToLatest(t.app.db, t.app.dbDialect);
    const word = await api.post('/api/admin/sensitiveWords', { word: '恢复前的词', category: 'other' });
    expect(word.status, word.text).toBe(200);

    const res = await restore(older);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.migrationsApplied).toEqual([newest]);
    const applied = await db
      .selectFrom('kysely_migration')
      .select('name')
      .where('name', '=', newest)
      .execute();
    expect(applied).toHaveLength(1);
    const words = await api.get('/api/admin/sensitiveWords?limit=100');
    expect(words.status, words.text).toBe(200);
    const listed = (words.body.data.results as { word: string }[]).map((w) => w.word);
    expect(listed.length).toBe(words.body.data.page.total);
    expect(listed).not.toContain('恢复前的词');
  });

  it('answers 403 to someone without the platform-config permission', async () => {
    const guest = apiAs(t.app, await tokenOf(t.app, 'guest', DEMO_PASSWORD));
    expect((await guest.post('/api/admin/backup')).status).toBe(403);
    const res = await restore(Buffer.from('x'), guest.token);
    expect(res.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/backup' })).statusCode).toBe(401);
  });
});
