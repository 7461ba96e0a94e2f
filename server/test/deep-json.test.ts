/**
 * Issue 18: JSON nested thousands deep (a 10 KB body) crashed serialisation with a stack
 * overflow (500). The body parser bounds the depth for every route: a clear 422, nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../src/http/json-depth.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from './helpers/app.js';
import { tokenOf } from './helpers/auth.js';
import { type Api, adminApi, apiAs } from './resources/helpers.js';

const TOO_DEEP = `请求内容嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`;

/** `levels` arrays one inside the other around a 1: `[[[1]]]` is 3. */
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

/** The real depth of a parsed value, walked without recursion. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

describe('jsonTooDeep', () => {
  it('agrees with the parsed depth whatever the strings hold', () => {
    const strings = ['', '\\', '\\\\', '"', '\\"', '[{', ']}', '\\[', 'a\\"]]', '中文[', '\u005b'];
    for (const text of strings) {
      for (const levels of [1, 2, 3, 4]) {
        let value: unknown = text;
        for (let i = 0; i < levels; i++) value = i % 2 ? { [text]: value, k: text } : [text, value, text];
        const json = JSON.stringify(value);
        for (const max of [1, 2, 3, 4]) {
          expect(jsonTooDeep(json, max), `${json} max ${max}`).toBe(depthOf(value) > max);
        }
      }
    }
    expect(jsonTooDeep('"unterminated [[[[', 1)).toBe(false);
    expect(jsonTooDeep(' 1 ', 0)).toBe(false);
  });
});

describe.each(DB_KINDS)('deeply nested JSON bodies on %s', (kind) => {
  let t: TestApp;
  let editor: Api;
  let admin: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    editor = apiAs(t.app, await tokenOf(t.app, 'editor', DEMO_PASSWORD));
    admin = await adminApi(t);
  });
  afterAll(async () => t?.close());

  const putRaw = (url: string, payload: string, token = editor.token) =>
    t.app.inject({
      method: 'PUT',
      url,
      payload,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });

  it('refuses a preference nested 5 000 deep with 422 and stores nothing', async () => {
    const res = await putRaw('/api/me/preferences/deep', `{"value":${nested(5000)}}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ success: false, errorCode: 422, message: TOO_DEEP });
    expect((await editor.get('/api/me/preferences')).body.data).not.toHaveProperty('deep');
    // The server still answers afterwards.
    expect((await editor.get('/api/me/preferences')).status).toBe(200);
  });

  it('takes a body exactly at the bound and refuses one level more', async () => {
    // The body object is level 1, so its value may hold MAX_JSON_DEPTH - 1 levels.
    const fits = await putRaw('/api/me/preferences/deep', `{"value":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(fits.statusCode).toBe(200);
    const over = await putRaw('/api/me/preferences/deep', `{"value":${nested(MAX_JSON_DEPTH)}}`);
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(TOO_DEEP);
    expect((await editor.get('/api/me/preferences')).body.data.deep).toEqual(
      JSON.parse(nested(MAX_JSON_DEPTH - 1)),
    );
  });

  it('counts only structure: brackets inside strings and escaped quotes do not nest', async () => {
    const text = `${'['.repeat(5000)}\\"{{{`;
    const res = await putRaw('/api/me/preferences/text', JSON.stringify({ value: { note: text } }));
    expect(res.statusCode).toBe(200);
    expect((await editor.get('/api/me/preferences')).body.data.text).toEqual({ note: text });
  });

  it('refuses a deep JSON field of a resource, and anonymously on a public route', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/appModules',
      payload: `{"key":"deep","name":"深","config":{"a":${nested(5000)}}}`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    });
    expect(created.statusCode).toBe(422);
    expect(created.json().message).toBe(TOO_DEEP);
    // A config a few levels deep, as a module's settings are, is taken; the refused one is not there.
    const config = { banner: { slots: [{ rules: [{ when: { hours: [9, 18] } }] }] } };
    const fine = await admin.post('/api/admin/appModules', { key: 'deepOk', name: '浅', config });
    expect(fine.status, fine.text).toBe(200);
    const list = await admin.get('/api/admin/appModules?q=deep');
    expect(list.status).toBe(200);
    expect(list.body.data.results.map((r: { key: string }) => r.key)).toEqual(['deepOk']);
    expect(list.body.data.results[0].config).toEqual(config);

    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/login/signin',
      payload: `{"username":${nested(5000)}}`,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(signin.statusCode).toBe(422);
    expect(signin.json().message).toBe(TOO_DEEP);
  });

  it('still refuses __proto__ keys as the default parser did', async () => {
    const res = await putRaw('/api/me/preferences/proto', '{"value":{"__proto__":{"x":1}}}');
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
