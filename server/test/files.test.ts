import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBlob } from '../src/files/blob-store.js';
import { ADMIN_PASSWORD, createTestDatabase, DB_KINDS, startTestApp, type TestApp } from './helpers/app.js';
import { bearer, tokenOf } from './helpers/auth.js';

// A small "WAV-like" payload: the route must serve any stored bytes exactly, whole or in ranges.
const BYTES = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

describe.each(DB_KINDS)('GET /api/files/:id on %s', (kind) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    url = (await putBlob(t.app.config.dataDir, BYTES, 'wav')).url;
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('serves the file with its type and a year of immutable caching', async () => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(new Uint8Array(res.rawPayload)).toEqual(BYTES);
  });

  it('answers a Range request with 206 and exactly those bytes', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/1000');
    expect(new Uint8Array(res.rawPayload)).toEqual(BYTES.slice(100, 200));
  });

  it('answers 416 for a range past the end', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=5000-6000' } });
    expect(res.statusCode).toBe(416);
  });

  it.each([
    '/api/files/0123456789abcdef0123456789abcdef.wav', // well formed, not stored
    '/api/files/..%2F..%2Fwanxiang.db',
    '/api/files/not-an-id.jpg',
  ])('answers the JSON 404 for %s and never reads outside the store', async (path) => {
    const res = await t.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, errorCode: 404 });
  });
});

describe('first start with demo content', () => {
  it('fills every screen once and serves the generated files', async () => {
    const db = await createTestDatabase('sqlite');
    const t = await startTestApp('sqlite', { db, config: { demoContent: true } });
    try {
      expect(t.app.demoContent?.seeded).toBe(true);
      const token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
      const photos = await t.app.inject({
        method: 'GET',
        url: '/api/admin/photos?limit=1',
        headers: bearer(token),
      });
      const photo = photos.json().data.results[0] as { image: string };
      const image = await t.app.inject({ method: 'GET', url: photo.image });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect([...image.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    } finally {
      await t.app.close();
    }
    // A restart on the same database writes nothing more.
    const again = await startTestApp('sqlite', { db, config: { demoContent: true } });
    try {
      expect(again.app.demoContent).toBeNull();
    } finally {
      await again.app.close();
      await db.drop();
    }
  });
});
