/** Signing in through the real routes, as the UI does: fetch a captcha, then post the form. */
import type { FastifyInstance } from 'fastify';
import { TEST_CAPTCHA_CODE } from './app.js';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function newCaptchaId(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/captcha/request' });
  return res.json().captchaId as string;
}

export interface SignInOptions {
  captchaCode?: string;
  captchaId?: string;
  remoteAddress?: string;
}

export async function signIn(
  app: FastifyInstance,
  username: string,
  password: string,
  options: SignInOptions = {},
) {
  const captchaId = options.captchaId ?? (await newCaptchaId(app));
  return app.inject({
    method: 'POST',
    url: '/api/login/signin',
    payload: { username, password, captchaId, captchaCode: options.captchaCode ?? TEST_CAPTCHA_CODE },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** Signs in and returns the token; fails the test if sign-in does not succeed. */
export async function tokenOf(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await signIn(app, username, password);
  const body = res.json();
  if (!body.success) throw new Error(`sign-in of ${username} failed: ${res.body}`);
  return body.data.token as string;
}
