import { ErrorCode, SIGNIN_LIMIT } from '@wanxiang/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from './helpers/app.js';
import { newCaptchaId, signIn } from './helpers/auth.js';

const WINDOW_S = SIGNIN_LIMIT.windowMs / 1000;

describe.each(DB_KINDS)('sign-in limits on %s', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(kind);
  });
  afterEach(async () => t?.close());

  async function failAs(username: string, times: number, remoteAddress = '10.0.0.1', stepMs = 0) {
    for (let i = 0; i < times; i++) {
      const res = await signIn(t.app, username, 'wrong-password', { remoteAddress });
      expect(res.json().errorCode).toBe(ErrorCode.wrongCredentials);
      t.clock.advance(stepMs);
    }
  }

  it('blocks a username after 5 failures with 429 and Retry-After, even with the right password', async () => {
    await failAs('admin', SIGNIN_LIMIT.perUsername, '10.0.0.1', 60_000);
    // The first failure was 5 minutes ago, so it leaves the 15-minute window in 10 minutes.
    const res = await signIn(t.app, 'admin', ADMIN_PASSWORD, { remoteAddress: '10.0.0.2' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe(String(WINDOW_S - 5 * 60));
    expect(res.json()).toEqual({
      success: false,
      errorCode: 429,
      message: `操作过于频繁，请 ${WINDOW_S - 5 * 60} 秒后再试`,
      data: { retryAfterS: WINDOW_S - 5 * 60 },
    });
    // Other usernames are not affected.
    expect((await signIn(t.app, 'editor', DEMO_PASSWORD, { remoteAddress: '10.0.0.1' })).json().success).toBe(
      true,
    );
  });

  it('lets the username in again once the oldest failure leaves the window', async () => {
    await failAs('admin', SIGNIN_LIMIT.perUsername);
    t.clock.advance(SIGNIN_LIMIT.windowMs - 1);
    const blocked = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    t.clock.advance(1);
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD)).json().success).toBe(true);
  });

  it('does not use up the captcha when it answers 429', async () => {
    await failAs('admin', SIGNIN_LIMIT.perUsername);
    const captchaId = await newCaptchaId(t.app);
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD, { captchaId })).statusCode).toBe(429);
    const row = await t.app.db
      .selectFrom('captchas')
      .select('used')
      .where('id', '=', captchaId)
      .executeTakeFirstOrThrow();
    expect(row.used).toBe(0);
  });

  it('counts only failures since the last success for a username', async () => {
    await failAs('admin', SIGNIN_LIMIT.perUsername - 1);
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD)).json().success).toBe(true);
    await failAs('admin', SIGNIN_LIMIT.perUsername - 1);
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD)).json().success).toBe(true);
  });

  it('blocks an address after 20 failures across usernames; other addresses go on', async () => {
    for (let i = 0; i < SIGNIN_LIMIT.perAddress; i++) {
      await failAs(`someone-${i}`, 1, '192.0.2.7');
    }
    const blocked = await signIn(t.app, 'editor', DEMO_PASSWORD, { remoteAddress: '192.0.2.7' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBe(WINDOW_S);
    expect(blocked.json().errorCode).toBe(ErrorCode.tooManyRequests);

    const elsewhere = await signIn(t.app, 'editor', DEMO_PASSWORD, { remoteAddress: '192.0.2.8' });
    expect(elsewhere.json().success).toBe(true);
  });

  it('does not count wrong captchas as password failures', async () => {
    for (let i = 0; i < SIGNIN_LIMIT.perUsername + 2; i++) {
      const res = await signIn(t.app, 'admin', 'wrong', { captchaCode: 'nope' });
      expect(res.json().errorCode).toBe(ErrorCode.wrongCaptcha);
    }
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD)).json().success).toBe(true);
  });
});
