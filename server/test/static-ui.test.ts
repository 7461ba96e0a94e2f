import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/app.js';

// As the build writes it (ui/vite.config.ts): the public home's preloads between markers.
const PRELOADS = `
    <!-- public-home-preload -->
    <link rel="modulepreload" crossorigin href="/assets/PublicLayout-Ab12.js">
    <link rel="preload" as="style" crossorigin href="/assets/PublicLayout-Cd34.css">
    <!-- /public-home-preload -->`;
const INDEX = `<!doctype html><html><head><title>万象</title>${PRELOADS}\n  </head><body><div id="root"></div></body></html>`;
const INDEX_WITHOUT_PRELOADS = INDEX.replace(PRELOADS, '');
const SCRIPT = 'console.log("app")';

describe.each(DB_KINDS)('serving the built UI on %s', (kind) => {
  let t: TestApp;
  let uiDist: string;
  beforeAll(async () => {
    uiDist = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-ui-'));
    mkdirSync(path.join(uiDist, 'assets'));
    writeFileSync(path.join(uiDist, 'index.html'), INDEX);
    writeFileSync(path.join(uiDist, 'assets', 'index-Bx7k2p.js'), SCRIPT);
    writeFileSync(path.join(uiDist, 'robots.txt'), 'User-agent: *\n');
    // What the build writes beside each file (ui/vite.config.ts `precompress`).
    writeFileSync(path.join(uiDist, 'assets', 'index-Bx7k2p.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(path.join(uiDist, 'assets', 'index-Bx7k2p.js.gz'), gzipSync(SCRIPT));
    writeFileSync(path.join(uiDist, 'index.html.gz'), gzipSync(INDEX));
    t = await startTestApp(kind, { config: { demoUsers: false, uiDist } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(uiDist, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves index.html at / with no-cache', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it("sends the build's brotli or gzip copy to a browser that accepts it", async () => {
    const asset = (encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/assets/index-Bx7k2p.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const br = await asset('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await asset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await get('/assets/index-Bx7k2p.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(SCRIPT);
  });

  it('serves other files, revalidated', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/article/42', '/doc/detail/7/3', '/music/', '/cloud/api', '/merchant_join?number=MJ1'])(
    'answers index.html with 200 and the public home’s preloads for the public page %s',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    },
  );

  it("sends a public page the build's gzip copy of index.html when accepted, and 304 to its entity tag", async () => {
    const headers = { 'accept-encoding': 'br;q=0, gzip' };
    const gz = await t.app.inject({ method: 'GET', url: '/doc/search', headers });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
    const etag = String(gz.headers.etag);
    const again = await t.app.inject({
      method: 'GET',
      url: '/doc/search',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    '/admin/login',
    '/admin',
    '/admin/OMS/order',
    '/admin/law/doc/category',
    '/scan_login',
    '/scan_login/confirm/t1?x=1',
  ])('answers index.html with 200 but no public preloads for the screen %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX_WITHOUT_PRELOADS);
  });

  it.each([
    '/no/such/page',
    '/no-such-page?x=1',
    '/admin/no-such',
    '/admin/oms/order',
    '/article/1/extra',
    '/scan_login/confirm',
  ])('answers index.html with 404 for %s, which the UI shows its 404 screen for', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX_WITHOUT_PRELOADS);
  });

  it('answers the API’s JSON 404 below the gateway /cloud/api/, never the site', async () => {
    for (const url of ['/cloud/api/x', '/cloud/api/weather/today?city=1']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: false, errorCode: 404, message: expect.any(String) });
    }
  });

  it('keeps the JSON 404 for /api paths, even ones that look like files', async () => {
    for (const url of ['/api/nope', '/api/assets/index-Bx7k2p.js']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, errorCode: 404 });
    }
  });

  it('does not answer index.html to a POST or to a path escaping the folder', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/admin/login' })).statusCode).toBe(404);
    const traversal = await get('/../../etc/passwd');
    expect(traversal.body).not.toContain('root:');
  });
});

describe.each(DB_KINDS)('without a built UI on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      config: { demoUsers: false, uiDist: path.join(os.tmpdir(), 'no-such-ui-dist') },
    });
  });
  afterAll(async () => t?.close());

  it('answers a plain message that the UI is not built, while the API works', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('UI is not built');
    expect((await t.app.inject({ method: 'GET', url: '/api/public/config' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/nope' })).json().errorCode).toBe(404);
  });
});
