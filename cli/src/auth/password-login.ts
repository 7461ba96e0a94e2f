/**
 * Sign-in with username, password and captcha, by hosting core's loginMachine — the same
 * machine as the admin login form — with the CLI's actors and notices. The machine fetches a
 * captcha per attempt, reports 登录失败 + code + message and fetches a fresh one; this file
 * only decides what to ask and when to give up.
 */
import { type AuthApi, ErrorCode, type LoginOutput, loginMachine, type Notifier } from '@wanxiang/core';
import { createActor, fromPromise, waitFor } from 'xstate';
import { CliError } from '../errors';

export interface PasswordCredentials {
  username: string;
  password: string;
}

/** How the answers are obtained when they were not given as flags (interactive login). */
export interface PasswordLoginPrompts {
  /** After a wrong username or password; `previous` is offered again as the username. */
  credentials(previous: string): Promise<PasswordCredentials>;
  /** Shows the captcha image; '' asks for another image. */
  captchaCode(image: string): Promise<string>;
}

export interface PasswordLoginOptions {
  auth: AuthApi;
  notifier: Notifier;
  credentials: PasswordCredentials;
  /** Used for the first attempt when given; otherwise asked. */
  captchaCode?: string;
  /** null: one attempt with the given answers (scripts). */
  prompts: PasswordLoginPrompts | null;
}

/** Failures worth another try with a new answer; anything else (disabled, 429, 500) ends it. */
const RETRYABLE = new Set<number>([ErrorCode.wrongCaptcha, ErrorCode.wrongCredentials]);
/** The server locks a username after 5 failures in 15 min (QUALITY.md); stop well before. */
export const MAX_ATTEMPTS = 3;

export async function passwordLogin(options: PasswordLoginOptions): Promise<LoginOutput> {
  const { auth, notifier, prompts } = options;
  // The machine keeps only a code and a message; the raw error tells a network failure's cause.
  let lastError: unknown = null;
  const remember =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      try {
        return await call(...args);
      } catch (error) {
        lastError = error;
        throw error;
      }
    };

  const actor = createActor(
    loginMachine.provide({
      actors: {
        fetchCaptcha: fromPromise(remember(() => auth.captcha())),
        signIn: fromPromise(remember(({ input }) => auth.signIn(input))),
      },
    }),
  );
  actor.on('notify', (notice) => notifier.notify(notice.level, notice.message));
  actor.start();

  try {
    let { username, password } = options.credentials;
    let captchaCode = options.captchaCode;
    for (let attempt = 1; ; ) {
      const ready = await waitFor(actor, (s) => s.matches('editing') || s.matches('captchaFailed'));
      // No captcha, no attempt: the network failure or server answer is the command's error.
      if (ready.matches('captchaFailed')) throw lastError;

      if (captchaCode === undefined) {
        if (!prompts) throw new Error('passwordLogin: a captcha code or prompts are required');
        const answer = await prompts.captchaCode(ready.context.captchaImage ?? '');
        if (answer === '') {
          actor.send({ type: 'REFRESH_CAPTCHA' });
          continue;
        }
        captchaCode = answer;
      }

      actor.send({ type: 'SUBMIT', username, password, captchaCode });
      const settled = await waitFor(actor, (s) => !s.matches('submitting'));
      if (settled.status === 'done') return settled.output as LoginOutput;

      // The machine has shown 登录失败 + code + message and is fetching a fresh captcha.
      const code = settled.context.failure?.code ?? null;
      if (code === null) throw lastError;
      if (!prompts || !RETRYABLE.has(code)) throw new CliError('登录失败', { reported: true });
      if (attempt >= MAX_ATTEMPTS) throw new CliError(`已连续 ${MAX_ATTEMPTS} 次登录失败，请稍后再试`);
      attempt += 1;
      captchaCode = undefined;
      if (code === ErrorCode.wrongCredentials) ({ username, password } = await prompts.credentials(username));
    }
  } finally {
    actor.stop();
  }
}
