/**
 * The admin login form as a machine: a captcha is fetched for every attempt; a failure toasts
 * 登录失败 + code + message and fetches a fresh captcha; success toasts 登录成功 and ends with
 * the sign-in result as output. Network calls are actors the host provides (`.provide()`), so
 * tests run with fakes and no network.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { SignInRequest, SignInResult } from '../contract/envelope';
import type { Captcha } from '../http/auth-api';
import { messages } from '../i18n/zh-CN';
import type { Notice } from './notice';
import { describeFailure } from './notice';

export interface LoginContext {
  captchaId: string | null;
  captchaImage: string | null;
  /** Why the last captcha fetch or sign-in failed, for the form to show. */
  failure: { code: number | null; message: string } | null;
  /** Who is signing in, so the session can show a name before /api/user/current answers. */
  username: string;
  result: SignInResult | null;
}

export type LoginEvent =
  | { type: 'SUBMIT'; username: string; password: string; captchaCode: string }
  | { type: 'REFRESH_CAPTCHA' };

export type LoginOutput = SignInResult & { username: string };

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    emitted: {} as Notice,
    output: {} as LoginOutput,
  },
  actors: {
    fetchCaptcha: fromPromise<Captcha>(async () => {
      throw new Error('loginMachine: provide the fetchCaptcha actor');
    }),
    signIn: fromPromise<SignInResult, SignInRequest>(async () => {
      throw new Error('loginMachine: provide the signIn actor');
    }),
  },
}).createMachine({
  id: 'login',
  context: { captchaId: null, captchaImage: null, failure: null, username: '', result: null },
  initial: 'loadingCaptcha',
  states: {
    loadingCaptcha: {
      entry: assign({ captchaId: null, captchaImage: null }),
      invoke: {
        src: 'fetchCaptcha',
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({
            captchaId: event.output.captchaId,
            captchaImage: event.output.image,
          })),
        },
        onError: {
          target: 'captchaFailed',
          actions: assign(({ event }) => ({ failure: describeFailure(event.error) })),
        },
      },
    },
    captchaFailed: {
      // The reason belongs to the failed fetch: once the user retries, it no longer applies.
      on: { REFRESH_CAPTCHA: { target: 'loadingCaptcha', actions: assign({ failure: null }) } },
    },
    editing: {
      on: {
        SUBMIT: { target: 'submitting', actions: assign(({ event }) => ({ username: event.username })) },
        REFRESH_CAPTCHA: 'loadingCaptcha',
      },
    },
    submitting: {
      invoke: {
        src: 'signIn',
        input: ({ context, event }) => {
          // The credentials travel in the event, never in context: nothing keeps the password.
          const e = event as Extract<LoginEvent, { type: 'SUBMIT' }>;
          return {
            username: e.username,
            password: e.password,
            captchaCode: e.captchaCode,
            captchaId: context.captchaId ?? '',
          };
        },
        onDone: {
          target: 'succeeded',
          actions: [
            assign(({ event }) => ({ failure: null, result: event.output })),
            emit({ type: 'notify', level: 'success', message: messages.loginSucceeded }),
          ],
        },
        onError: {
          target: 'loadingCaptcha',
          actions: [
            assign(({ event }) => ({ failure: describeFailure(event.error) })),
            emit(({ event }) => {
              const f = describeFailure(event.error);
              const parts = [messages.loginFailed, f.code ?? '', f.message].filter((p) => p !== '');
              return { type: 'notify' as const, level: 'error' as const, message: parts.join(' ') };
            }),
          ],
        },
      },
    },
    succeeded: { type: 'final' },
  },
  output: ({ context }) => ({ ...(context.result as SignInResult), username: context.username }),
});
