/**
 * Sign in to a running 万象 server from Node and print who you are — the same login machine,
 * session machine and HTTP client the admin UI uses, hosted in a script.
 *
 *   npx tsx examples/sign-in.ts --api-url http://127.0.0.1:8080 --username admin --password … \
 *     [--captcha-code …]
 *
 * Without --captcha-code the captcha image is saved to ./captcha.svg and the code is read from the
 * terminal. (--captcha-code suits a server started with WANXIANG_CAPTCHA_TEST_CODE, for automation.)
 * Exit code 0 when signed in, 1 otherwise.
 */
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import {
  createAuthApi,
  createHttpClient,
  decide,
  type HttpPorts,
  type LoginOutput,
  loginMachine,
  memoryTokenStore,
  sessionMachine,
  sessionView,
} from '@wanxiang/core';
import { type AnyActorRef, createActor, fromPromise, waitFor } from 'xstate';

const { values: args } = parseArgs({
  options: {
    'api-url': { type: 'string', default: 'http://127.0.0.1:8080' },
    username: { type: 'string' },
    password: { type: 'string' },
    'captcha-code': { type: 'string' },
  },
});
if (!args.username || !args.password) {
  console.error(
    'usage: npx tsx examples/sign-in.ts --api-url URL --username NAME --password PASS [--captcha-code CODE]',
  );
  process.exit(1);
}

class SessionEnded extends Error {}

// 1. The ports: where the SDK's side effects go. A browser uses localStorage and antd; a script
//    keeps the token in memory and prints notices to stderr.
const ports: HttpPorts = {
  tokenStore: memoryTokenStore(),
  notifier: { notify: (level, message) => console.error(`[${level}] ${message}`) },
  // The browser reloads the page after a 401 or a revoked session; a script can only stop.
  reload: () => {
    throw new SessionEnded('会话已失效，请重新登录');
  },
  // After a 401 the session machine must know it is signed out.
  onLogout: () => session.send({ type: 'EXPIRED' }),
};

// 2. One HTTP client (base URL, 10 s timeout, bearer token, error catalogue) and the typed auth calls.
const http = createHttpClient({ ...ports, baseURL: args['api-url'] });
const auth = createAuthApi(http);

// 3. The machines get their network calls as actors.
const session = createActor(
  sessionMachine.provide({
    actors: {
      loadCurrentUser: fromPromise(() => auth.currentUser()),
      signOut: fromPromise(() => auth.signOut()),
    },
  }),
  { input: { tokenStore: ports.tokenStore } },
);
const login = createActor(
  loginMachine.provide({
    actors: {
      fetchCaptcha: fromPromise(() => auth.captcha()),
      signIn: fromPromise(({ input }) => auth.signIn(input)),
    },
  }),
);

// Machines emit notices (登录成功, 登录失败 10001 …) rather than showing them: show them here.
for (const actor of [login, session] as AnyActorRef[]) {
  actor.on('notify', (notice: { level: string; message: string }) =>
    console.error(`[${notice.level}] ${notice.message}`),
  );
}

async function captchaCode(image: string): Promise<string> {
  if (args['captcha-code']) return args['captcha-code'];
  const svg = Buffer.from(image.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64');
  writeFileSync('captcha.svg', svg);
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await terminal.question('captcha written to ./captcha.svg — code: ')).trim();
  } finally {
    terminal.close();
  }
}

async function signIn(): Promise<LoginOutput | null> {
  login.start();
  const ready = await waitFor(login, (s) => s.matches('editing') || s.matches('captchaFailed'));
  if (ready.matches('captchaFailed')) {
    console.error(`captcha: ${ready.context.failure?.message}`);
    return null;
  }
  login.send({
    type: 'SUBMIT',
    username: args.username as string,
    password: args.password as string,
    captchaCode: await captchaCode(ready.context.captchaImage ?? ''),
  });
  // Success ends the machine; a failure has already been reported and a new captcha is loading.
  const after = await waitFor(login, (s) => s.status === 'done' || s.matches('loadingCaptcha'));
  login.stop();
  return after.status === 'done' ? after.output : null;
}

async function main(): Promise<number> {
  session.start(); // no stored token: signedOut
  const result = await signIn();
  if (!result) return 1;

  // 4. Hand the login result to the session: it stores the token and loads /api/user/current.
  session.send({ type: 'SIGNED_IN', ...result });
  const loaded = await waitFor(session, (s) => !s.matches({ signedIn: 'loadingUser' }));
  if (!loaded.matches({ signedIn: 'ready' })) {
    console.error(`current user: ${loaded.context.error ?? 'signed out'}`);
    return 1;
  }

  const { user, displayName } = loaded.context;
  console.log(
    JSON.stringify(
      {
        displayName,
        username: user?.username,
        roles: user?.roles,
        permissions: user?.permissions.join(' '),
        tokenExpires: loaded.context.expire ? new Date(loaded.context.expire).toISOString() : null,
        // The same guard the admin UI runs before opening /admin.
        admin: decide('/admin', sessionView(loaded)),
      },
      null,
      2,
    ),
  );

  // 5. A memory token dies with the process, so revoke it on the server rather than leave it valid.
  session.send({ type: 'SIGN_OUT' });
  await waitFor(session, (s) => s.matches('signedOut') || s.matches({ signedIn: 'ready' }));
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    console.error(error instanceof SessionEnded ? error.message : error);
    process.exitCode = 1;
  });
