/**
 * Posters: a saved poster gets its image — the background with a QR code that decodes back to the
 * target link (read with jsQR from the stored PNG); a new link regenerates it, a new title does
 * not; 生成 renders on demand; a background that is not an uploaded image is a 422, no row.
 */
import jsQR from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTER_MIN_SIDE } from '../../src/domain/posters/render.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/auth.js';
import { type Api, adminApi } from '../resources/helpers.js';

const BOUNDARY = '----wanxiang-poster-boundary';
const BASE = '/api/admin/posters';

describe.each(DB_KINDS)('posters on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let background: string;

  async function uploadBackground(width: number, height: number, colour: string): Promise<string> {
    const data = await sharp({ create: { width, height, channels: 3, background: colour } })
      .jpeg()
      .toBuffer();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads?resource=posters',
      headers: { ...bearer(api.token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bg.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.url;
  }

  /** The stored poster as served, decoded: its size and what its QR code says. */
  async function readPoster(url: string) {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(api.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(res.rawPayload)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const code = jsQR(
      new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength),
      info.width,
      info.height,
    );
    return { width: info.width, height: info.height, text: code?.data ?? null };
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    background = await uploadBackground(1080, 1920, '#1d3557');
  });
  afterAll(async () => t?.close());

  it('renders the background with a QR code of the link on save; a new link regenerates, a title does not', async () => {
    const created = await api.post(BASE, {
      title: '邀请好友',
      background,
      targetUrl: 'https://wanxiang.example.com/invite?from=poster&id=1',
    });
    expect(created.status, created.text).toBe(200);
    const poster = created.body.data;
    expect(poster.image).toMatch(/^\/api\/files\/[0-9a-f]{32}\.png$/);
    expect(await readPoster(poster.image)).toEqual({
      width: 1080,
      height: 1920,
      text: 'https://wanxiang.example.com/invite?from=poster&id=1',
    });

    const relinked = await api.patch(
      `${BASE}/${poster.id}`,
      { targetUrl: 'https://wanxiang.example.com/member' },
      { 'if-match': poster.updatedAt },
    );
    expect(relinked.status, relinked.text).toBe(200);
    expect(relinked.body.data.image).not.toBe(poster.image);
    expect((await readPoster(relinked.body.data.image)).text).toBe('https://wanxiang.example.com/member');

    const retitled = await api.patch(
      `${BASE}/${poster.id}`,
      { title: '会员日' },
      { 'if-match': relinked.body.data.updatedAt },
    );
    expect(retitled.body.data.image).toBe(relinked.body.data.image);

    // A new background regenerates too (a small one is enlarged so the code still scans).
    const small = await uploadBackground(200, 300, '#f1faee');
    const rebacked = await api.patch(
      `${BASE}/${poster.id}`,
      { background: small },
      { 'if-match': retitled.body.data.updatedAt },
    );
    const read = await readPoster(rebacked.body.data.image);
    expect(read).toEqual({
      width: POSTER_MIN_SIDE,
      height: 540,
      text: 'https://wanxiang.example.com/member',
    });
  });

  it('生成 renders on demand (the same bytes give the same stored file)', async () => {
    const created = (
      await api.post(BASE, { title: '新品', background, targetUrl: 'https://example.com/new' })
    ).body.data;
    // The image is lost (e.g. the row was imported without it).
    await t.app.db
      .updateTable('posters' as never)
      .set({ image: null } as never)
      .where('id' as never, '=', created.id as never)
      .execute();
    const res = await api.post(`${BASE}/${created.id}/generate`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('生成成功');
    expect(res.body.data.image).toBe(created.image);
    expect((await readPoster(res.body.data.image)).text).toBe('https://example.com/new');
  });

  it('refuses a background that is not an uploaded image (422, nothing written)', async () => {
    const count = async () => (await api.get(`${BASE}?limit=1`)).body.data.page.total;
    const before = await count();
    const res = await api.post(BASE, {
      title: '外链背景',
      background: 'https://cdn.example.com/bg.jpg',
      targetUrl: 'https://example.com/',
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.data.fields.background).toBe('背景图须为上传的图片');
    expect(await count()).toBe(before);
  });
});
