/**
 * POST /api/admin/uploads, the files it stores (served by GET /api/files/{id}) and the public
 * gallery GET /api/public/photos, on a real database.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBlob, uploadsDir } from '../../src/files/blob-store.js';
import { COUNT_TTL_MS } from '../../src/resources/counts.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs } from '../resources/helpers.js';

const BOUNDARY = '----wanxiang-test-boundary';

function multipartBody(
  filename: string,
  data: Buffer,
  contentType = 'application/octet-stream',
  field = 'file',
) {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const image = (width: number, height: number, colour = '#3a7bd5') =>
  sharp({ create: { width, height, channels: 3, background: colour } });

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

describe.each(DB_KINDS)('image uploads and the gallery on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let editor: string;
  let png: Buffer;

  const upload = (
    token: string | null,
    filename: string,
    data: Buffer,
    resource = 'photos',
    contentType = 'image/png',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/uploads?resource=${resource}`,
      headers: {
        ...(token ? bearer(token) : {}),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: multipartBody(filename, data, contentType),
    });

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await adminApi(t);
    editor = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    png = await image(1600, 1000).png().toBuffer();
  });
  afterAll(async () => t?.close());

  it('stores an image with a 480 px WebP thumbnail and answers what the field stores', async () => {
    const res = await upload(editor, '西湖.png', png);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: '上传成功' });
    expect(body.data).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{32}\.png$/),
      url: expect.stringMatching(/^\/api\/files\/[0-9a-f]{32}\.png$/),
      contentType: 'image/png',
      width: 1600,
      height: 1000,
      thumbnail: { id: expect.stringMatching(/\.webp$/), width: 480, height: 300 },
    });
    expect(body.data.url).toBe(`/api/files/${body.data.id}`);
    const thumb = await t.app.inject({ method: 'GET', url: body.data.thumbnail.url });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 480,
      height: 300,
    });
  });

  it('serves an uploaded image with its type, caching headers, ETag, nosniff and Range', async () => {
    const { url } = (await upload(editor, 'a.png', png)).json().data;
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(whole.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.etag).toEqual(expect.any(String));
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(whole.rawPayload, png)).toBe(0);

    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(whole.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${png.byteLength}`);
    expect(part.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(part.rawPayload, png.subarray(0, 100))).toBe(0);
  });

  it('takes the type from the bytes: JPEG, WebP and GIF (stored as WebP)', async () => {
    const jpeg = await upload(editor, 'photo.png', await image(800, 600).jpeg().toBuffer());
    expect(jpeg.json().data).toMatchObject({
      contentType: 'image/jpeg',
      id: expect.stringMatching(/\.jpg$/),
    });
    const webp = await upload(editor, 'x', await image(300, 200).webp().toBuffer());
    expect(webp.json().data).toMatchObject({ contentType: 'image/webp', width: 300, height: 200 });
    // Narrower than a thumbnail: the thumbnail keeps the original width.
    expect(webp.json().data.thumbnail).toMatchObject({ width: 300, height: 200 });
    const gif = await upload(editor, 'a.gif', await image(120, 90).gif().toBuffer(), 'photos', 'image/gif');
    expect(gif.statusCode, gif.body).toBe(200);
    expect(gif.json().data).toMatchObject({ contentType: 'image/webp', width: 120, height: 90 });
    const served = await t.app.inject({ method: 'GET', url: gif.json().data.url });
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('strips EXIF (GPS) and applies the orientation', async () => {
    const withExif = await image(400, 200)
      .jpeg()
      .withExif({ IFD0: { Make: '测试相机' }, IFD3: { GPSLatitudeRef: 'N' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await sharp(withExif).metadata()).toMatchObject({ orientation: 6, exif: expect.any(Buffer) });
    const res = await upload(editor, 'gps.jpg', withExif, 'photos', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(200);
    // Orientation 6 = rotated 90°: shown 200 wide and 400 high.
    expect(res.json().data).toMatchObject({ width: 200, height: 400 });
    const stored = await t.app.inject({ method: 'GET', url: res.json().data.url });
    const meta = await sharp(stored.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta).toMatchObject({ width: 200, height: 400 });
  });

  it('refuses what is not an image, or too big, and writes nothing', async () => {
    const dir = uploadsDir(t.app.config.dataDir);
    const before = filesIn(dir);
    const rowsBefore = await t.app.db
      .selectFrom('image_files' as never)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();

    const text = await upload(editor, 'fake.png', Buffer.from('这不是图片，只是文本。'.repeat(20)));
    expect(text.statusCode).toBe(422);
    expect(text.json()).toMatchObject({
      success: false,
      errorCode: 422,
      message: expect.stringContaining('不支持的文件类型'),
    });
    const svg = await upload(
      editor,
      'x.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    );
    expect(svg.statusCode).toBe(422);
    const pdf = await upload(editor, 'x.png', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'));
    expect(pdf.statusCode).toBe(422);
    // PNG magic bytes, then garbage: detected as PNG, refused as unreadable.
    const broken = await upload(
      editor,
      'broken.png',
      Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]),
    );
    expect(broken.statusCode).toBe(422);
    expect(broken.json().message).toMatch(/图片/);
    const empty = await upload(editor, 'empty.png', Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);

    const huge = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    const big = await upload(editor, 'big.png', huge);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({
      success: false,
      errorCode: 413,
      message: expect.stringContaining('文件过大'),
    });

    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads?resource=photos',
      headers: bearer(editor),
      payload: { file: 'x' },
    });
    expect(notMultipart.statusCode).toBe(422);
    const wrongField = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads?resource=photos',
      headers: { ...bearer(editor), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipartBody('a.png', png, 'image/png', 'image'),
    });
    expect(wrongField.statusCode).toBe(422);

    expect(filesIn(dir)).toEqual(before);
    const rowsAfter = await t.app.db
      .selectFrom('image_files' as never)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rowsAfter.n)).toBe(Number(rowsBefore.n));
  });

  it("needs the owning resource's write permission", async () => {
    expect((await upload(null, 'a.png', png)).statusCode).toBe(401);
    const operator = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
    const guest = await tokenOf(t.app, 'guest', DEMO_PASSWORD);
    // Photos and articles are the blog's: an operator, or a user without roles, may not upload there.
    for (const token of [operator, guest]) {
      for (const resource of ['photos', 'articles']) {
        const res = await upload(token, 'a.png', png, resource);
        expect(res.statusCode, resource).toBe(403);
        expect(res.json()).toMatchObject({ success: false, errorCode: 403 });
      }
    }
    // A store's logo is operations' business: the operator may, the editor may not.
    expect((await upload(operator, 'logo.png', png, 'stores')).statusCode).toBe(200);
    expect((await upload(editor, 'logo.png', png, 'stores')).statusCode).toBe(403);
    // No image field, or no such resource: nothing to upload for.
    for (const resource of ['auditLogs', 'nope']) {
      const res = await upload(editor, 'a.png', png, resource);
      expect(res.statusCode, resource).toBe(422);
      expect(res.json().data.fields).toHaveProperty('resource');
    }
  });

  describe('the gallery', () => {
    let uploaded: { url: string; thumbnail: { url: string } };
    let photoId: number;
    /** A photo's file stored before uploads existed (as the demo's): no thumbnail of its own. */
    let oldJpeg: Buffer;

    beforeAll(async () => {
      uploaded = (
        await upload(editor, 'gallery.png', await image(1200, 900, '#c94b4b').png().toBuffer())
      ).json().data;
    });

    it('fills a photo’s thumbnail from its upload, on create and on update', async () => {
      const api = apiAs(t.app, editor);
      const created = await api.post('/api/admin/photos', {
        title: '雷峰夕照',
        image: uploaded.url,
        album: '西湖四季',
        tags: ['西湖', '日落'],
        takenAt: '2024-10-01T10:00:00.000Z',
      });
      expect(created.status, created.text).toBe(200);
      photoId = created.body.data.id;
      expect(created.body.data.thumbnail).toBe(uploaded.thumbnail.url);
      expect((await api.get(`/api/admin/photos/${photoId}`)).body.data.thumbnail).toBe(
        uploaded.thumbnail.url,
      );

      // Another upload: the thumbnail follows; an external URL: no stale thumbnail is left.
      const other = (await upload(editor, 'b.png', await image(640, 480, '#56ab2f').png().toBuffer())).json()
        .data;
      let row = (await api.get(`/api/admin/photos/${photoId}`)).body.data;
      await api.patch(`/api/admin/photos/${photoId}`, { image: other.url, updatedAt: row.updatedAt });
      row = (await api.get(`/api/admin/photos/${photoId}`)).body.data;
      expect(row.thumbnail).toBe(other.thumbnail.url);
      await api.patch(`/api/admin/photos/${photoId}`, {
        image: 'https://img.example.com/a.jpg',
        updatedAt: row.updatedAt,
      });
      row = (await api.get(`/api/admin/photos/${photoId}`)).body.data;
      expect(row.thumbnail).toBeNull();
      await api.patch(`/api/admin/photos/${photoId}`, { image: uploaded.url, updatedAt: row.updatedAt });
    });

    it('lists published photos newest taken first, with sizes, thumbnails and albums', async () => {
      // A photo stored before uploads existed (as the demo's): its size is read from the file.
      oldJpeg = await image(900, 600).jpeg().toBuffer();
      const old = await putBlob(t.app.config.dataDir, oldJpeg, 'jpg');
      await admin.post('/api/admin/photos', {
        title: '旧照片',
        image: old.url,
        album: '山野',
        takenAt: '2023-05-01T10:00:00.000Z',
      });
      await admin.post('/api/admin/photos', {
        title: '外链',
        image: 'https://img.example.com/b.jpg',
        album: '山野',
        takenAt: '2022-05-01T10:00:00.000Z',
      });
      await admin.post('/api/admin/photos', {
        title: '隐藏的',
        image: old.url,
        album: '私人',
        status: 'hidden',
        takenAt: '2025-01-01T00:00:00.000Z',
      });

      const res = await t.app.inject({ method: 'GET', url: '/api/public/photos' });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.page).toEqual({ total: 3, page: 1, limit: 24 });
      expect(data.results).toEqual([
        {
          id: photoId,
          title: '雷峰夕照',
          album: '西湖四季',
          tags: ['西湖', '日落'],
          takenAt: '2024-10-01T10:00:00.000Z',
          thumbUrl: uploaded.thumbnail.url,
          url: uploaded.url,
          width: 1200,
          height: 900,
        },
        expect.objectContaining({
          title: '旧照片',
          url: old.url,
          thumbUrl: old.url,
          width: 900,
          height: 600,
        }),
        expect.objectContaining({
          title: '外链',
          thumbUrl: 'https://img.example.com/b.jpg',
          width: null,
          height: null,
        }),
      ]);
      expect(data.albums).toEqual([
        { name: '山野', count: 2 },
        { name: '西湖四季', count: 1 },
      ]);

      const album = (
        await t.app.inject({
          method: 'GET',
          url: `/api/public/photos?album=${encodeURIComponent('山野')}&limit=1`,
        })
      ).json().data;
      expect(album.page).toEqual({ total: 2, page: 1, limit: 1 });
      expect(album.results.map((p: { title: string }) => p.title)).toEqual(['旧照片']);
      const page2 = (
        await t.app.inject({
          method: 'GET',
          url: `/api/public/photos?album=${encodeURIComponent('山野')}&limit=1&page=2`,
        })
      ).json().data;
      expect(page2.results.map((p: { title: string }) => p.title)).toEqual(['外链']);
      const tagged = (
        await t.app.inject({ method: 'GET', url: `/api/public/photos?tag=${encodeURIComponent('日落')}` })
      ).json().data;
      expect(tagged.results.map((p: { title: string }) => p.title)).toEqual(['雷峰夕照']);
      expect((await t.app.inject({ method: 'GET', url: '/api/public/photos?limit=99' })).statusCode).toBe(
        422,
      );
    });

    it('shows the thumbnail of an old photo’s file uploaded again at once (sizes are kept once read)', async () => {
      const oldPhoto = async () =>
        (await t.app.inject({ method: 'GET', url: `/api/public/photos?album=${encodeURIComponent('山野')}` }))
          .json()
          .data.results.find((p: { title: string }) => p.title === '旧照片');
      const before = await oldPhoto();
      expect(before.thumbUrl).toBe(before.url);
      const again = (await upload(editor, 'old.jpg', oldJpeg, 'photos', 'image/jpeg')).json().data;
      expect(again.url).toBe(before.url);
      expect(await oldPhoto()).toMatchObject({ url: before.url, thumbUrl: again.thumbnail.url, width: 900 });
    });

    it('shows a write through the back office in the total and the albums at once (they are kept)', async () => {
      const gallery = async (query = '') =>
        (await t.app.inject({ method: 'GET', url: `/api/public/photos${query}` })).json().data;
      const mountains = `?album=${encodeURIComponent('山野')}`;
      const before = await gallery();
      const beforeAlbum = await gallery(mountains);
      const countOf = (albums: { name: string; count: number }[], name: string) =>
        albums.find((a) => a.name === name)?.count ?? 0;

      const created = await admin.post('/api/admin/photos', {
        title: '新的山',
        image: 'https://img.example.com/c.jpg',
        album: '山野',
        takenAt: '2021-05-01T10:00:00.000Z',
      });
      expect(created.status, created.text).toBe(200);
      const after = await gallery();
      expect(after.page.total).toBe(before.page.total + 1);
      expect(countOf(after.albums, '山野')).toBe(countOf(before.albums, '山野') + 1);
      expect((await gallery(mountains)).page.total).toBe(beforeAlbum.page.total + 1);

      const hidden = await admin.patch(`/api/admin/photos/${created.body.data.id}`, {
        status: 'hidden',
        updatedAt: created.body.data.updatedAt,
      });
      expect(hidden.status, hidden.text).toBe(200);
      expect((await gallery()).page.total).toBe(before.page.total);
      expect((await gallery(mountains)).page.total).toBe(beforeAlbum.page.total);
      expect(await gallery(`?album=${encodeURIComponent('没有的相册')}`)).toMatchObject({
        page: { total: 0 },
        results: [],
      });
    });

    it('keeps its answers: a change another process made shows within 10 s, one made here at once', async () => {
      const gallery = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/public/photos?limit=50' })).json().data as {
          results: { id: number; title: string }[];
        };
      const first = (await gallery()).results[0] as { id: number; title: string };
      // Written beside this process (as another server process on the database would).
      await t.app.db
        .updateTable('photos' as never)
        .set({ title: '别处改的标题' } as never)
        .where('id' as never, '=', first.id as never)
        .execute();
      expect((await gallery()).results[0]?.title).toBe(first.title);
      t.clock.advance(COUNT_TTL_MS);
      expect((await gallery()).results[0]?.title).toBe('别处改的标题');

      const row = (await admin.get(`/api/admin/photos/${first.id}`)).body.data;
      const renamed = await admin.patch(`/api/admin/photos/${first.id}`, {
        title: '后台改的标题',
        updatedAt: row.updatedAt,
      });
      expect(renamed.status, renamed.text).toBe(200);
      expect((await gallery()).results[0]?.title).toBe('后台改的标题');
    });
  });
});
