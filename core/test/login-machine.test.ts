/**
 * The login machine in isolation: its two network calls are swapped for fakes with `.provide()`,
 * so these tests need no server and no msw.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import {
  ApiError,
  type Captcha,
  type LoginOutput,
  loginMachine,
  type Notice,
  type SignInRequest,
  type SignInResult,
} from '../src/index';
import { statesOf, trace, transitionsOf } from './support/machine-trace';

const PASSWORD = 'pä$$-w0rd-never-kept';
const RESULT: SignInResult = { token: 'tok-1', authority: ['admin'], expire: 1_900_000_000_000 };

interface Fakes {
  /** Each call answers with the next entry; an Error entry fails that fetch. */
  captchas?: (Captcha | Error)[];
  signIn?: (request: SignInRequest) => SignInResult | Error;
}

function start({ captchas, signIn }: Fakes = {}, inspect?: ReturnType<typeof trace>['inspect']) {
  const captchaCalls: number[] = [];
  const signInCalls: SignInRequest[] = [];
  let n = 0;
  const machine = loginMachine.provide({
    actors: {
      fetchCaptcha: fromPromise<Captcha>(async () => {
        n++;
        captchaCalls.push(n);
        const next = captchas?.[n - 1] ?? { captchaId: `c-${n}`, image: `data:image/svg+xml;base64,${n}` };
        if (next instanceof Error) throw next;
        return next;
      }),
      signIn: fromPromise<SignInResult, SignInRequest>(async ({ input }) => {
        signInCalls.push(input);
        const answer = signIn ? signIn(input) : RESULT;
        if (answer instanceof Error) throw answer;
        return answer;
      }),
    },
  });
  const actor = createActor(machine, inspect ? { inspect } : {});
  const notices: Notice[] = [];
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  return { actor, captchaCalls, signInCalls, notices };
}

const submit = { type: 'SUBMIT', username: 'admin', password: PASSWORD, captchaCode: 'ab12' } as const;

describe('loginMachine', () => {
  it('starts by fetching a captcha, then lets the user edit', async () => {
    const { actor, captchaCalls } = start();
    expect(actor.getSnapshot().value).toBe('loadingCaptcha');
    const editing = await waitFor(actor, (s) => s.matches('editing'));
    expect(editing.context).toMatchObject({ captchaId: 'c-1', captchaImage: 'data:image/svg+xml;base64,1' });
    expect(captchaCalls).toHaveLength(1);
  });

  it('a failed captcha fetch goes to captchaFailed with a reason; REFRESH_CAPTCHA tries again', async () => {
    const { actor, captchaCalls } = start({ captchas: [new TypeError('fetch failed')] });
    const failed = await waitFor(actor, (s) => s.matches('captchaFailed'));
    expect(failed.context.failure).toEqual({ code: null, message: '网络异常，请检查网络连接' });
    expect(failed.context.captchaId).toBeNull();

    actor.send({ type: 'REFRESH_CAPTCHA' });
    expect(actor.getSnapshot().value).toBe('loadingCaptcha');
    const editing = await waitFor(actor, (s) => s.matches('editing'));
    expect(editing.context.captchaId).toBe('c-2');
    // The captcha loaded: the form must not keep showing the old network error.
    expect(editing.context.failure).toBeNull();
    expect(captchaCalls).toHaveLength(2);
  });

  it('an ApiError from the captcha call keeps its code and message', async () => {
    const { actor } = start({ captchas: [new ApiError(429, 429, '操作过于频繁，请 60 秒后再试')] });
    const failed = await waitFor(actor, (s) => s.matches('captchaFailed'));
    expect(failed.context.failure).toEqual({ code: 429, message: '操作过于频繁，请 60 秒后再试' });
  });

  it('REFRESH_CAPTCHA while editing fetches a new captcha', async () => {
    const { actor, captchaCalls } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'REFRESH_CAPTCHA' });
    const reloading = actor.getSnapshot();
    expect(reloading.value).toBe('loadingCaptcha');
    // The old captcha is gone at once: it must not be submitted while the new one loads.
    expect(reloading.context.captchaId).toBeNull();
    const editing = await waitFor(actor, (s) => s.matches('editing'));
    expect(editing.context.captchaId).toBe('c-2');
    expect(captchaCalls).toHaveLength(2);
  });

  it('SUBMIT signs in with the current captcha id, toasts 登录成功 and outputs the session', async () => {
    const { actor, signInCalls, notices, captchaCalls } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('submitting');

    const output: LoginOutput = await toPromise(actor);
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(output).toEqual({
      token: 'tok-1',
      authority: ['admin'],
      expire: 1_900_000_000_000,
      username: 'admin',
    });
    expect(signInCalls).toEqual([
      { username: 'admin', password: PASSWORD, captchaId: 'c-1', captchaCode: 'ab12' },
    ]);
    expect(notices).toEqual([{ type: 'notify', level: 'success', message: '登录成功' }]);
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect(captchaCalls).toHaveLength(1);
  });

  it('a login failure toasts 登录失败 <code> <message> and fetches a NEW captcha', async () => {
    const { actor, notices, captchaCalls, signInCalls } = start({
      // The first captcha is answered wrong; the second attempt gets it right.
      signIn: (request) =>
        request.captchaId === 'c-1' ? new ApiError(200, 10001, '验证码错误或已过期') : RESULT,
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(submit);
    const again = await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === 'c-2');

    expect(notices).toEqual([
      { type: 'notify', level: 'error', message: '登录失败 10001 验证码错误或已过期' },
    ]);
    expect(again.context.failure).toEqual({ code: 10001, message: '验证码错误或已过期' });
    expect(captchaCalls).toHaveLength(2);

    // The retry uses the new captcha, and succeeds.
    actor.send({ ...submit, captchaCode: 'cd34' });
    await toPromise(actor);
    expect(signInCalls.map((r) => [r.captchaId, r.captchaCode])).toEqual([
      ['c-1', 'ab12'],
      ['c-2', 'cd34'],
    ]);
    expect(captchaCalls).toHaveLength(2);
    expect(notices.at(-1)).toEqual({ type: 'notify', level: 'success', message: '登录成功' });
  });

  it('each failed attempt costs one fresh captcha', async () => {
    const { actor, captchaCalls, notices } = start({
      signIn: () => new ApiError(200, 10002, '用户名或密码错误'),
    });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === `c-${attempt}`);
      actor.send(submit);
    }
    await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === 'c-4');
    expect(captchaCalls).toHaveLength(4);
    expect(notices.map((n) => n.message)).toEqual(Array(3).fill('登录失败 10002 用户名或密码错误'));
  });

  it('a network failure toasts 登录失败 with the network message (no code)', async () => {
    const { actor, notices } = start({ signIn: () => new TypeError('fetch failed') });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(submit);
    const again = await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === 'c-2');
    expect(notices).toEqual([
      { type: 'notify', level: 'error', message: '登录失败 网络异常，请检查网络连接' },
    ]);
    expect(again.context.failure).toEqual({ code: null, message: '网络异常，请检查网络连接' });
  });

  it('the legacy code of a login failure is reported as its code', async () => {
    // ApiError.errorCode is already normalised from `code`/`errorCode` by the HTTP client.
    const { actor, notices } = start({ signIn: () => new ApiError(200, 10003, '账号已停用，请联系管理员') });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === 'c-2');
    expect(notices[0]?.message).toBe('登录失败 10003 账号已停用，请联系管理员');
  });

  it('never keeps the password: not in context while submitting, nowhere in the snapshot after', async () => {
    const { actor } = start({ signIn: () => new ApiError(200, 10002, '用户名或密码错误') });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(PASSWORD);

    await waitFor(actor, (s) => s.matches('editing') && s.context.captchaId === 'c-2');
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain(PASSWORD);

    const ok = start();
    await waitFor(ok.actor, (s) => s.matches('editing'));
    ok.actor.send(submit);
    await toPromise(ok.actor);
    expect(JSON.stringify(ok.actor.getPersistedSnapshot())).not.toContain(PASSWORD);
    expect(JSON.stringify(ok.actor.getSnapshot().output)).not.toContain(PASSWORD);
  });

  it('ignores SUBMIT while the captcha loads and while a submission is in flight', async () => {
    const { actor, signInCalls } = start();
    actor.send(submit); // loadingCaptcha: there is no captcha to submit with yet
    expect(actor.getSnapshot().value).toBe('loadingCaptcha');
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(submit);
    actor.send(submit); // a double click
    await toPromise(actor);
    expect(signInCalls).toHaveLength(1);
  });

  it('reaches every state and takes every transition of its definition', async () => {
    const t = trace('login');
    const failing = start(
      { captchas: [new TypeError('offline')], signIn: () => new ApiError(200, 10001, '验证码错误') },
      t.inspect,
    );
    await waitFor(failing.actor, (s) => s.matches('captchaFailed'));
    failing.actor.send({ type: 'REFRESH_CAPTCHA' });
    await waitFor(failing.actor, (s) => s.matches('editing'));
    failing.actor.send({ type: 'REFRESH_CAPTCHA' });
    await waitFor(failing.actor, (s) => s.matches('editing') && s.context.captchaId === 'c-3');
    failing.actor.send(submit);
    await waitFor(failing.actor, (s) => s.matches('editing') && s.context.captchaId === 'c-4');

    const succeeding = start({}, t.inspect);
    await waitFor(succeeding.actor, (s) => s.matches('editing'));
    succeeding.actor.send(submit);
    await toPromise(succeeding.actor);

    expect([...t.states].sort()).toEqual(statesOf(loginMachine));
    expect([...t.transitions].sort()).toEqual(transitionsOf(loginMachine));
  });
});
