import { createHash } from 'node:crypto';
import { ErrorCode } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from './helpers/app.js';
import { newCaptchaId, signIn } from './helpers/auth.js';

describe.each(DB_KINDS)('sign-in on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('answers a token, the roles as authority and the expiry', async () => {
    const res = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, data: { authority: ['admin'] } });
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(body.data.expire).toBe(t.clock.now() + t.config.sessionTtlMs);
  });

  it('stores the token only as its SHA-256 and records the sign-in time', async () => {
    t.clock.advance(1000);
    const { token } = (await signIn(t.app, 'editor', DEMO_PASSWORD)).json().data;
    const hash = createHash('sha256').update(token).digest('hex');
    const session = await t.app.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(session.expires_at).toBe(t.clock.now() + t.config.sessionTtlMs);
    expect(JSON.stringify(await t.app.db.selectFrom('sessions').selectAll().execute())).not.toContain(token);
    const user = await t.app.db
      .selectFrom('users')
      .select(['last_login_at', 'password_hash'])
      .where('username', '=', 'editor')
      .executeTakeFirstOrThrow();
    expect(user.last_login_at).toBe(t.clock.now());
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('gives a user without roles an empty authority', async () => {
    const res = await signIn(t.app, 'guest', DEMO_PASSWORD);
    expect(res.json()).toMatchObject({ success: true, data: { authority: [] } });
  });

  it('checks the captcha before the password (10001 even when the password is wrong too)', async () => {
    const res = await signIn(t.app, 'admin', 'wrong-password', { captchaCode: 'xxxx' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: false,
      errorCode: ErrorCode.wrongCaptcha,
      message: '验证码错误或已过期',
    });
  });

  it('answers 10002 with the same message for a wrong password and an unknown user', async () => {
    const wrongPassword = await signIn(t.app, 'operator', 'not-it');
    const unknownUser = await signIn(t.app, 'nobody-here', 'not-it');
    for (const res of [wrongPassword, unknownUser]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: false,
        errorCode: ErrorCode.wrongCredentials,
        message: '用户名或密码错误',
      });
    }
  });

  it('answers 10003 for a disabled account with the right password, 10002 with a wrong one', async () => {
    await t.app.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('username', '=', 'operator')
      .execute();
    try {
      const right = await signIn(t.app, 'operator', DEMO_PASSWORD);
      expect(right.json()).toEqual({
        success: false,
        errorCode: ErrorCode.accountDisabled,
        message: '账号已停用，请联系管理员',
      });
      const wrong = await signIn(t.app, 'operator', 'not-it');
      expect(wrong.json().errorCode).toBe(ErrorCode.wrongCredentials);
    } finally {
      await t.app.db
        .updateTable('users')
        .set({ status: 'active' })
        .where('username', '=', 'operator')
        .execute();
    }
  });

  it('answers 422 with a Chinese message per missing field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/signin',
      payload: { username: 'admin' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      errorCode: 422,
      message: '输入有误，请检查后重试',
      data: {
        fields: { password: '请输入密码', captchaId: '请输入验证码编号', captchaCode: '请输入验证码' },
      },
    });
  });

  it('treats empty strings as missing and reports over-long and wrongly typed fields', async () => {
    const captchaId = await newCaptchaId(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/signin',
      payload: { username: '', password: 'x'.repeat(300), captchaId, captchaCode: { a: 1 } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().data.fields).toEqual({
      username: '请输入用户名',
      password: '密码最多256个字符',
      captchaCode: '验证码不是一个有效的字符串',
    });
  });

  it('answers 422 for malformed JSON and 413 for an oversized body', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/login/signin',
      payload: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ success: false, errorCode: 422, message: '请求内容不是有效的 JSON' });

    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/login/signin',
      payload: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ success: false, errorCode: 413, message: '请求内容过大' });
  });

  it('records each checked attempt with its outcome', async () => {
    const before = await t.app.db
      .selectFrom('login_attempts')
      .select(['success'])
      .where('username', '=', 'editor')
      .execute();
    await signIn(t.app, 'editor', 'bad');
    await signIn(t.app, 'editor', DEMO_PASSWORD);
    const after = await t.app.db
      .selectFrom('login_attempts')
      .select(['success', 'at'])
      .where('username', '=', 'editor')
      .orderBy('id')
      .execute();
    expect(after.slice(before.length).map((r) => r.success)).toEqual([0, 1]);
  });
});
