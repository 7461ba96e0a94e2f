import { CAPTCHA_TTL_MS, ErrorCode } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, startTestApp, TEST_CAPTCHA_CODE, type TestApp } from './helpers/app.js';
import { newCaptchaId, signIn } from './helpers/auth.js';

describe.each(DB_KINDS)('captcha on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { demoUsers: false } });
  });
  afterAll(async () => t?.close());

  it('answers the id and an SVG data URL at the top level', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha/request' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.captchaId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(body.data.split(',')[1], 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('<path');
  });

  it('gives a new id every time', async () => {
    const ids = new Set(await Promise.all([1, 2, 3].map(() => newCaptchaId(t.app))));
    expect(ids.size).toBe(3);
  });

  it('accepts the answer regardless of case', async () => {
    const res = await signIn(t.app, 'admin', ADMIN_PASSWORD, {
      captchaCode: TEST_CAPTCHA_CODE.toUpperCase(),
    });
    expect(res.json().success).toBe(true);
  });

  it('is single use: the second sign-in with the same id is a wrong captcha', async () => {
    const captchaId = await newCaptchaId(t.app);
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId })).json().success).toBe(true);
    const again = await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: false, errorCode: ErrorCode.wrongCaptcha });
  });

  it('is used up by a wrong answer too', async () => {
    const captchaId = await newCaptchaId(t.app);
    const wrong = await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId, captchaCode: 'nope' });
    expect(wrong.json().errorCode).toBe(ErrorCode.wrongCaptcha);
    const right = await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId });
    expect(right.json().errorCode).toBe(ErrorCode.wrongCaptcha);
  });

  it('expires after its TTL', async () => {
    const fresh = await newCaptchaId(t.app);
    const stale = await newCaptchaId(t.app);
    t.clock.advance(CAPTCHA_TTL_MS - 1);
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId: fresh })).json().success).toBe(true);
    t.clock.advance(1);
    const res = await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId: stale });
    expect(res.json()).toMatchObject({
      success: false,
      errorCode: ErrorCode.wrongCaptcha,
      message: '验证码错误或已过期',
    });
  });

  it('rejects an unknown id', async () => {
    const res = await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId: 'no-such-captcha' });
    expect(res.json()).toMatchObject({ success: false, errorCode: ErrorCode.wrongCaptcha });
  });

  it('stores only a hash of the answer', async () => {
    const captchaId = await newCaptchaId(t.app);
    const row = await t.app.db
      .selectFrom('captchas')
      .selectAll()
      .where('id', '=', captchaId)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.used).toBe(0);
    expect(row.expires_at).toBe(t.clock.now() + CAPTCHA_TTL_MS);
  });
});
