/**
 * How to test one of core's machines: swap its network calls for fakes with `.provide()`, run it
 * as an actor, and wait for the states you expect. No server, no msw, no sleeps.
 *
 * Run it with the rest of the suite: `npx vitest run --project examples`.
 */
import {
  ApiError,
  type Captcha,
  loginMachine,
  type Notice,
  type SignInRequest,
  type SignInResult,
} from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';

describe('testing the login machine with fakes', () => {
  it('signs in: captcha → edit → submit → 登录成功', async () => {
    // 1. The machine declares two actors, `fetchCaptcha` and `signIn`. In the app they call the
    //    server (createAuthApi); in a test they are plain async functions wrapped in fromPromise.
    const submitted: SignInRequest[] = [];
    const machine = loginMachine.provide({
      actors: {
        fetchCaptcha: fromPromise<Captcha>(async () => ({
          captchaId: 'captcha-1',
          image: 'data:image/svg+xml;base64,PHN2Zy8+',
        })),
        signIn: fromPromise(async ({ input }: { input: SignInRequest }) => {
          submitted.push(input);
          return { token: 'token-1', authority: ['admin'], expire: Date.now() + 3_600_000 };
        }),
      },
    });

    // 2. Start an actor. Toasts are not side effects of the machine: it *emits* notices, and the
    //    host (antd in the UI, stderr in the CLI, an array here) decides how to show them.
    const actor = createActor(machine);
    const notices: Notice[] = [];
    actor.on('notify', (notice) => notices.push(notice));
    actor.start();

    // 3. It fetches a captcha first. `waitFor` resolves as soon as the predicate holds — no sleep.
    const editing = await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(editing.context.captchaImage).toBe('data:image/svg+xml;base64,PHN2Zy8+');

    // 4. Submit the form. The credentials travel in the event; the fake sees them together with
    //    the captcha id the machine holds.
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'secret', captchaCode: 'ab12' });
    expect(actor.getSnapshot().value).toBe('submitting');

    // 5. `succeeded` is a final state, so the actor completes with an output: what the session
    //    machine needs (SIGNED_IN) to store the token.
    const output = await toPromise(actor);
    expect(output).toMatchObject({ token: 'token-1', authority: ['admin'], username: 'admin' });
    expect(submitted).toEqual([
      { username: 'admin', password: 'secret', captchaId: 'captcha-1', captchaCode: 'ab12' },
    ]);
    expect(notices).toEqual([{ type: 'notify', level: 'success', message: '登录成功' }]);
  });

  it('a wrong captcha: 登录失败 with the code, and a fresh captcha for the next try', async () => {
    // A fake can fail the way the HTTP client does: with an ApiError carrying the server's code.
    let captchas = 0;
    const machine = loginMachine.provide({
      actors: {
        fetchCaptcha: fromPromise<Captcha>(async () => {
          captchas++;
          return { captchaId: `captcha-${captchas}`, image: '' };
        }),
        signIn: fromPromise<SignInResult, SignInRequest>(async () => {
          throw new ApiError(200, 10001, '验证码错误或已过期');
        }),
      },
    });
    const actor = createActor(machine);
    const notices: string[] = [];
    actor.on('notify', (notice) => notices.push(notice.message));
    actor.start();

    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'secret', captchaCode: 'wrong' });

    // Wait for the *second* captcha: a used captcha is never offered again.
    const retry = await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === 'captcha-2');
    expect(retry.context.failure).toEqual({ code: 10001, message: '验证码错误或已过期' });
    expect(notices).toEqual(['登录失败 10001 验证码错误或已过期']);
    expect(captchas).toBe(2);
  });
});
