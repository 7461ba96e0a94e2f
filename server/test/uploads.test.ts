/**
 * Every route that takes an upload, fed malformed bodies (issue 18's attack run): a body cut off
 * before its closing boundary, no file part, the file in another field, two files, an empty body,
 * no boundary, JSON instead of a form, over the size limit. Each is a 4xx with a Chinese message
 * and stores nothing. And one image rule for every image upload: a small file declaring huge
 * dimensions is refused before its pixels are decoded.
 */
import { readdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { encodeWav, MELODIES, renderMelody } from '@wanxiang/demo';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDir } from '../src/files/blob-store.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/app.js';
import { bearer } from './helpers/auth.js';
import { type Api, adminApi } from './resources/helpers.js';

const BOUNDARY = '----wanxiang-malformed';
const CDN_MAX_BYTES = 64 * 1024;

const partHead = (field: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
  'Content-Type: application/octet-stream\r\n\r\n';

const form = (...parts: (string | Buffer)[]) =>
  Buffer.concat([
    ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);

const filePart = (field: string, data: Buffer) =>
  Buffer.concat([Buffer.from(partHead(field, 'a.bin')), data, Buffer.from('\r\n')]);

/** A PNG that is only a header: its IHDR declares `width` × `height`, its one IDAT is empty. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.byteLength);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(0)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true }).map(String).sort();
  } catch {
    return [];
  }
}

interface UploadRoute {
  name: string;
  url: () => string;
  signedIn: boolean;
  maxBytes: number;
  /** A file the route accepts. */
  good: () => Buffer;
}

describe.each(DB_KINDS)('malformed uploads on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let domainId: number;
  let png: Buffer;
  let address = 0;

  const wav = encodeWav(renderMelody(MELODIES.huanlesong));
  const ROUTES: UploadRoute[] = [
    {
      name: 'admin image',
      url: () => '/api/admin/uploads?resource=photos',
      signedIn: true,
      maxBytes: 10 * 2 ** 20,
      good: () => png,
    },
    {
      name: 'track audio',
      url: () => '/api/admin/media/audio',
      signedIn: true,
      maxBytes: 30 * 2 ** 20,
      good: () => wav,
    },
    {
      name: 'licence image',
      url: () => '/api/public/merchant-applications/license-image',
      signedIn: false,
      maxBytes: 5 * 2 ** 20,
      good: () => png,
    },
    {
      name: 'CDN log import',
      url: () => `/api/admin/cdnDomains/${domainId}/import`,
      signedIn: true,
      maxBytes: CDN_MAX_BYTES,
      good: () =>
        Buffer.from('198.51.100.9 - - [01/Jan/2025:10:00:00 +0800] "GET / HTTP/1.1" 200 5 "-" "x"\n'),
    },
  ];

  const send = (
    route: UploadRoute,
    payload: Buffer | string,
    contentType = `multipart/form-data; boundary=${BOUNDARY}`,
  ) =>
    t.app.inject({
      method: 'POST',
      url: route.url(),
      headers: { ...(route.signedIn ? bearer(admin.token) : {}), 'content-type': contentType },
      payload,
      // The licence upload is limited per address and hour: each request its own address.
      remoteAddress: `203.0.113.${++address % 250}`,
    });

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { cdn: { importMaxBytes: CDN_MAX_BYTES } } });
    admin = await adminApi(t);
    const res = await admin.post('/api/admin/cdnDomains', {
      domain: 'up.example.com',
      origin: 'origin.example.com',
    });
    domainId = res.body.data.id as number;
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => t?.close());

  const MALFORMED: {
    name: string;
    body: (route: UploadRoute) => Buffer | string;
    contentType?: string;
    status?: number;
  }[] = [
    // The attack run's finding: the closing boundary never comes.
    {
      name: 'cut off before its closing boundary',
      body: (r) => Buffer.concat([Buffer.from(partHead('file', 'a.bin')), r.good()]),
    },
    { name: 'cut off inside the part headers', body: () => `--${BOUNDARY}\r\nContent-Disposition: form-da` },
    {
      name: 'without a file part',
      body: () => form(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
    },
    { name: 'with the file in another field', body: (r) => form(filePart('image', r.good())) },
    { name: 'with two files', body: (r) => form(filePart('file', r.good()), filePart('file', r.good())) },
    { name: 'with an empty file', body: () => form(filePart('file', Buffer.alloc(0))) },
    { name: 'empty', body: () => '' },
    { name: 'not a form at all', body: () => 'just some bytes, no boundary anywhere' },
    {
      name: 'multipart without a boundary',
      body: (r) => form(filePart('file', r.good())),
      contentType: 'multipart/form-data',
    },
    {
      name: 'JSON instead of a form',
      body: () => JSON.stringify({ file: 'x' }),
      contentType: 'application/json',
    },
    {
      name: 'over the size limit',
      body: (r) => form(filePart('file', Buffer.concat([r.good(), Buffer.alloc(r.maxBytes + 1024, 7)]))),
      status: 413,
    },
  ];

  describe.each(ROUTES.map((r) => [r.name, r] as const))('%s', (_name, route) => {
    it('takes a good file (the cases below are refused for their form, not their content)', async () => {
      const res = await send(route, form(filePart('file', route.good())));
      expect(res.statusCode, res.body).toBe(200);
    });

    it.each(MALFORMED.map((m) => [m.name, m] as const))(
      'refuses a body %s: 4xx, Chinese, nothing stored',
      async (_case, m) => {
        const before = filesIn(uploadsDir(t.app.config.dataDir));
        const res = await send(route, m.body(route), m.contentType);
        if (m.status) expect(res.statusCode, res.body).toBe(m.status);
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        const body = res.json();
        expect(body.success).toBe(false);
        expect(body.message).toMatch(/[\u4e00-\u9fff]/);
        expect(filesIn(uploadsDir(t.app.config.dataDir))).toEqual(before);
      },
    );
  });

  describe('one image rule', () => {
    const IMAGE_ROUTES = ROUTES.filter((r) => r.name.endsWith('image'));

    it.each(IMAGE_ROUTES.map((r) => [r.name, r] as const))(
      '%s: a small PNG declaring 30 000 × 30 000 pixels is refused with 422, nothing stored',
      async (_name, route) => {
        const bomb = pngDeclaring(30_000, 30_000);
        expect(bomb.byteLength).toBeLessThan(100);
        const before = filesIn(uploadsDir(t.app.config.dataDir));
        const res = await send(route, form(filePart('file', bomb)));
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().message).toBe('图片像素过多，最大 50 百万像素');
        expect(filesIn(uploadsDir(t.app.config.dataDir))).toEqual(before);
      },
    );

    it.each(IMAGE_ROUTES.map((r) => [r.name, r] as const))(
      '%s: a PNG with the right magic bytes that does not decode is refused with 422',
      async (_name, route) => {
        const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
        const res = await send(route, form(filePart('file', broken)));
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().message).toMatch(/图片/);
      },
    );
  });
});
