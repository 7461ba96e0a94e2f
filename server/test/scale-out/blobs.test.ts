/**
 * BLOB_STORE=database (files/database-blobs.ts) on a real database, SQLite and PostgreSQL: two
 * apps on one database, each with its own data folder, stand for two server processes on two
 * machines. An upload through one is served by the other with the same bytes and the same
 * headers as the folder store gives; the same bytes are stored once; an install that switches
 * from the folder store keeps serving its old files and copies them into the table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobIdOf, putBlob } from '../../src/files/blob-store.js';
import type { DatabaseBlobStore } from '../../src/files/database-blobs.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  DB_KINDS,
  startTestApp,
  type TestApp,
  type TestDatabase,
} from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';

const BOUNDARY = '----wanxiang-scale-boundary';

function multipart(filename: string, data: Buffer): { payload: Buffer; headers: Record<string, string> } {
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      data,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/** The headers a file answer carries, without those that differ per answer or per store. */
function fileHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, etag: _etag, connection: _c, 'x-request-id': _id, ...rest } = headers;
  return rest;
}

describe.each(DB_KINDS)('the database blob store on %s', (kind) => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let folderApp: TestApp;
  let dirB: string;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    dirB = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-test-b-'));
    a = await startTestApp(kind, { db, config: { blobStore: 'database' } });
    b = await startTestApp(kind, { db, config: { blobStore: 'database', dataDir: dirB } });
    folderApp = await startTestApp(kind);
    token = await tokenOf(a.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await folderApp?.close();
    await db?.drop();
    rmSync(dirB, { recursive: true, force: true });
  });

  it('serves an image uploaded through one process from the other, same bytes and headers', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0392b' } })
      .png()
      .toBuffer();
    const body = multipart('red.png', png);
    const upload = await a.app.inject({
      method: 'POST',
      url: '/api/admin/uploads?resource=photos',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const url = upload.json().data.url as string;
    expect(b.app.blobs.kind).toBe('database');
    expect(await b.app.blobs.exists(blobIdOf(url) as string)).toBe(true);

    const served = await b.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(Buffer.from(served.rawPayload).equals(png)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['accept-ranges']).toBe('bytes');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers.etag).toBeDefined();

    // The folder store's answer for the same bytes: the same headers.
    const inFolder = await putBlob(folderApp.config.dataDir, png, 'png');
    const fromFolder = await folderApp.app.inject({ method: 'GET', url: inFolder.url });
    expect(inFolder.url).toBe(url);
    expect(fileHeaders(served.headers)).toEqual(fileHeaders(fromFolder.headers));

    const again = await b.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': served.headers.etag },
    });
    expect(again.statusCode).toBe(304);
    const range = await b.app.inject({ method: 'GET', url, headers: { range: 'bytes=8-15' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 8-15/${png.byteLength}`);
    expect(Buffer.from(range.rawPayload).equals(png.subarray(8, 16))).toBe(true);
  });

  it('stores the same bytes once, whichever process writes them', async () => {
    const bytes = Buffer.from('the same bytes, written twice');
    const first = await a.app.blobs.put(bytes, 'pdf');
    const second = await b.app.blobs.put(new Uint8Array(bytes), 'pdf');
    expect(second).toEqual(first);
    const rows = await a.app.db
      .selectFrom('blobs')
      .select(['id', 'size'])
      .where('id', '=', first.id)
      .execute();
    expect(rows).toEqual([{ id: first.id, size: bytes.byteLength }]);
    expect((await b.app.blobs.read(first.id))?.equals(bytes)).toBe(true);
  });

  it('answers 404 for an id stored nowhere', async () => {
    const res = await b.app.inject({ method: 'GET', url: '/api/files/0123456789abcdef0123456789abcdef.png' });
    expect(res.statusCode).toBe(404);
    expect(await b.app.blobs.exists('0123456789abcdef0123456789abcdef.png')).toBe(false);
    expect(await b.app.blobs.read('../../wanxiang.db')).toBeNull();
  });

  it("keeps serving a switched install's old files and copies them into the table", async () => {
    // Written by the folder store before the switch, in B's folder only.
    const old = await putBlob(dirB, Buffer.from('an upload from the folder days'), 'pdf');
    expect((await b.app.inject({ method: 'GET', url: old.url })).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'GET', url: old.url })).statusCode).toBe(404);

    const copied = await (b.app.blobs as DatabaseBlobStore).importFolder();
    expect(copied).toBeGreaterThanOrEqual(1);
    const served = await a.app.inject({ method: 'GET', url: old.url });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('an upload from the folder days');
    // Run again (another process, another start): nothing left to copy.
    expect(await (b.app.blobs as DatabaseBlobStore).importFolder()).toBe(0);
  });
});
