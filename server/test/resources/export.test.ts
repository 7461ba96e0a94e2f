import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSlabs } from '../../src/resources/export/chunk-pool.js';
import { parallelExports } from '../../src/resources/export/parallel.js';
import { EXPORT_BATCH, exportStream } from '../../src/resources/index.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi, seedOrders } from './helpers.js';

/** Minimal RFC 4180 reader: enough to parse back what the export writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe.each(DB_KINDS)('export on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let seeded: Awaited<ReturnType<typeof seedOrders>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    seeded = await seedOrders(t, 2 * EXPORT_BATCH + 345);
  });
  afterAll(async () => t?.close());

  it('writes CSV for Excel: BOM, Chinese header, labels, yuan, China time, related names', async () => {
    const res = await api.get('/api/admin/orders/export?format=csv&status=paid&sort=payableFen');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="export.csv"; filename*=UTF-8''${encodeURIComponent('订单')}.csv`,
    );
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(res.text.slice(1));
    expect(header?.slice(0, 6)).toEqual(['ID', '订单号', '门店ID', '门店', '顾客ID', '顾客']);
    expect(header).toContain('支付方式');
    expect(header?.slice(-2)).toEqual(['创建时间', '更新时间']);
    expect(header).not.toContain('status');
    const col = (name: string) => (header as string[]).indexOf(name);
    // i = 1: the first paid order, 1010 fen, created 2025-01-01 00:01 UTC.
    const first = rows[0] as string[];
    expect(first[col('订单号')]).toBe('NO000002');
    expect(first[col('门店')]).toBe('海淀门店');
    expect(first[col('门店ID')]).toBe(String(seeded.storeB));
    expect(first[col('顾客')]).toBe('guest');
    expect(first[col('状态')]).toBe('已支付');
    expect(first[col('支付方式')]).toBe('微信支付');
    expect(first[col('履约方式')]).toBe('外卖配送');
    expect(first[col('应付')]).toBe('10.10');
    expect(first[col('创建时间')]).toBe('2025-01-01 08:01');
    expect(first[col('支付时间')]).toBe('2025-01-01 08:01');
    // The lines as people read them (core's fieldText), not the JSON the row keeps.
    expect(first[col('商品明细')]).toBe('宫保鸡丁 ×2 ¥56.00');
    expect(rows.every((r) => r[col('状态')] === '已支付')).toBe(true);
    const total = (await api.get('/api/admin/orders?status=paid&limit=1')).body.data.page.total;
    expect(rows).toHaveLength(total);
  });

  it('writes NDJSON of wire rows: every matching row once, across batches, as the list has them', async () => {
    for (const query of ['', 'status_in=paid,cancelled', `storeId=${seeded.storeA}&q=望京`]) {
      const res = await api.get(`/api/admin/orders/export?format=ndjson${query ? `&${query}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const lines = res.text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const list = (await api.get(`/api/admin/orders?limit=500${query ? `&${query}` : ''}`)).body.data;
      expect(lines).toHaveLength(list.page.total);
      expect(new Set(lines.map((r) => r.id)).size).toBe(lines.length);
      expect(lines.slice(0, list.results.length)).toEqual(list.results);
    }
  });

  it('exports a large CSV in two lanes (worker thread and main thread) with every row once, in the list order', async () => {
    const started = parallelExports.started;
    const csv = await api.get('/api/admin/orders/export?format=csv');
    expect(csv.status).toBe(200);
    // SQLite takes the two-lane path once the first batch is full; PostgreSQL stays in one lane.
    expect(parallelExports.started - started).toBe(kind === 'sqlite' ? 1 : 0);
    const [header, ...rows] = parseCsv(csv.text.slice(1));
    const ids = rows.map((r) => Number(r[0]));
    // The same rows in the same order as NDJSON, which always runs in one lane.
    const nd = await api.get('/api/admin/orders/export?format=ndjson');
    const ndIds = nd.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(seeded.ids.length);
    expect(ids).toEqual(ndIds);
    // And cell for cell what one lane writes: a nullable sort key (paidAt) never takes the two-lane path.
    const single = await api.get('/api/admin/orders/export?format=csv&sort=paidAt');
    const [singleHeader, ...singleRows] = parseCsv(single.text.slice(1));
    expect(singleHeader).toEqual(header);
    const byId = (list: string[][]) => [...list].sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(byId(rows)).toEqual(byId(singleRows));
  });

  it('answers a bad filter or format as a normal 422, not a broken file', async () => {
    const bad = await api.get('/api/admin/orders/export?format=csv&nope=1');
    expect(bad.status).toBe(422);
    expect(bad.body.data.fields).toEqual({ nope: '不支持的筛选条件 nope' });
    const format = await api.get('/api/admin/orders/export?format=xlsx');
    expect(format.status).toBe(422);
    expect(format.body.data.fields).toEqual({ format: '导出格式须为 csv 或 ndjson' });
  });

  it('writes only the header for no rows, and keeps spreadsheet formulas inert', async () => {
    const empty = await api.get('/api/admin/orders/export?format=csv&orderNo=none');
    expect(parseCsv(empty.text.slice(1))).toHaveLength(1);
    await t.app.resources.insertRows(getResource('stores'), [
      { name: '=HYPERLINK("http://evil")', phone: '010-1', address: '+1, "quoted"\nnext line' },
    ]);
    const res = await api.get(`/api/admin/stores/export?format=csv&q=${encodeURIComponent('HYPERLINK')}`);
    const [header, row] = parseCsv(res.text.slice(1));
    expect(row?.[(header as string[]).indexOf('门店名称')]).toBe(`'=HYPERLINK("http://evil")`);
    expect(row?.[(header as string[]).indexOf('地址')]).toBe(`'+1, "quoted"\nnext line`);
    // NDJSON is data, exactly as stored.
    const nd = await api.get(`/api/admin/stores/export?format=ndjson&q=${encodeURIComponent('HYPERLINK')}`);
    expect(JSON.parse(nd.text.trim()).name).toBe('=HYPERLINK("http://evil")');
  });
});

/**
 * GET over a real socket, read slowly: the reader stops after every piece for a few turns of the
 * event loop, so the server's socket fills and its export waits for it (backpressure).
 */
function slowGet(url: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (piece: Buffer) => {
        pieces.push(piece);
        res.pause();
        let turns = 20;
        const later = () => (--turns > 0 ? setImmediate(later) : res.resume());
        setImmediate(later);
      });
      res.on('end', () => resolve(Buffer.concat(pieces).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(DB_KINDS)('a large export through a socket on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    await seedOrders(t, 32 * EXPORT_BATCH);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it('reaches a reader over a socket byte for byte, written into a few buffers used again and again', async () => {
    // In-process (the answer is copied as it is written): the reference.
    const expected = (await api.get('/api/admin/orders/export?format=csv')).text;
    const made = exportSlabs.made;
    const slow = await slowGet(`${base}/api/admin/orders/export?format=csv`, api.token);
    expect(slow.length).toBe(expected.length);
    expect(slow === expected).toBe(true);
    expect(parseCsv(slow.slice(1))).toHaveLength(32 * EXPORT_BATCH + 1);
    // The main thread writes half of the 32 chunks (the worker the other half, into buffers the
    // main thread lends it): a new buffer for each would be 16 or more.
    expect(exportSlabs.made - made).toBeLessThan(8);
  });

  it('takes a buffer back only once the destination has sent the chunk in it', async () => {
    const expected = (await api.get('/api/admin/orders/export?format=csv')).text;
    // A destination that holds each chunk it is given (the buffer itself, as a socket does) for
    // a few turns of the event loop and only then sends it (here: copies it).
    const sent: Buffer[] = [];
    const destination = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, done) {
        let turns = 5;
        const later = () => {
          if (--turns > 0) return setImmediate(later);
          sent.push(Buffer.from(chunk));
          done();
        };
        setImmediate(later);
      },
    });
    const made = exportSlabs.made;
    const stream = await exportStream(
      t.app.resources,
      getResource('orders'),
      {},
      'csv',
      () => destination.writableLength,
    );
    await pipeline(stream, destination);
    // A buffer taken back too early would have been written over before it was sent.
    expect(Buffer.concat(sent).toString('utf8') === expected).toBe(true);
    expect(exportSlabs.made - made).toBeLessThan(8);
  });
});

describe.each(DB_KINDS)('related names of a large export on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  it('names thousands of different related rows, and none for a row that is gone', async () => {
    // More different stores than a streamed export looks up one by one before it reads them all.
    const count = 5 * EXPORT_BATCH + 500;
    const storeIds = (await t.app.resources.insertRows(
      getResource('stores'),
      Array.from({ length: count }, (_, i) => ({
        name: i % 7 === 0 ? `=门店${i}` : `门店 "${i}", 分店`,
        phone: '010-1',
        address: '北京',
      })),
    )) as number[];
    const missing = Math.max(...storeIds) + 1000;
    const orders = Array.from({ length: count + 1 }, (_, i) => ({
      orderNo: `S${i}`,
      storeId: i < count ? storeIds[(i * 7919) % count] : missing,
      payableFen: 100,
      status: 'paid',
      createdAt: Date.UTC(2025, 0, 1) + i * 1000,
    }));
    await t.app.resources.insertRows(getResource('orders'), orders);
    const stores = await sql<{ id: number; name: string }>`select id, name from stores`.execute(t.app.db);
    const nameOf = new Map(stores.rows.map((s) => [Number(s.id), s.name]));
    const csv = await api.get('/api/admin/orders/export?format=csv');
    const [header, ...rows] = parseCsv(csv.text.slice(1));
    const idAt = (header as string[]).indexOf('门店ID');
    const nameAt = (header as string[]).indexOf('门店');
    expect(rows).toHaveLength(count + 1);
    for (const row of rows) {
      const id = Number(row[idAt]);
      const name = nameOf.get(id);
      // Names a spreadsheet would run are kept inert; a store that does not exist has none.
      expect(row[nameAt]).toBe(name === undefined ? '' : name.startsWith('=') ? `'${name}` : name);
    }
    expect(rows.some((row) => Number(row[idAt]) === missing)).toBe(true);
  });
});
