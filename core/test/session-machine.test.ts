/**
 * The session machine in isolation: a memory token store and fake actors via `.provide()`.
 * Each answer of a fake is scripted, and a `Deferred` answer keeps a call pending so the test can
 * act while the machine waits.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  ApiError,
  type CurrentUser,
  memoryTokenStore,
  type Notice,
  type SessionEvent,
  sessionMachine,
  sessionView,
  type TokenStore,
} from '../src/index';
import { statesOf, trace, transitionsOf } from './support/machine-trace';

class Deferred<T> {
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  readonly promise = new Promise<T>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

type Answer<T> = T | Error | Deferred<T>;

function user(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    username: 'admin',
    nickname: '管理员',
    roles: ['admin'],
    permissions: ['system:read'],
    ...overrides,
  };
}

function answer<T>(a: Answer<T> | undefined, fallback: T): Promise<T> {
  if (a instanceof Deferred) return a.promise;
  if (a instanceof Error) return Promise.reject(a);
  return Promise.resolve(a === undefined ? fallback : a);
}

interface Script {
  token?: string | null;
  /** Answers of /api/user/current, one per call; afterwards `user()`. */
  users?: Answer<CurrentUser>[];
  /** Answers of /api/login/signout, one per call; afterwards success. */
  signOuts?: Answer<void>[];
  inspect?: ReturnType<typeof trace>['inspect'];
}

function start({ token = null, users = [], signOuts = [], inspect }: Script = {}) {
  const tokenStore: TokenStore = memoryTokenStore(token);
  const calls = { loadCurrentUser: 0, signOut: 0 };
  const machine = sessionMachine.provide({
    actors: {
      loadCurrentUser: fromPromise<CurrentUser>(() => answer(users[calls.loadCurrentUser++], user())),
      signOut: fromPromise<void>(() => answer(signOuts[calls.signOut++], undefined)),
    },
  });
  const actor = createActor(machine, { input: { tokenStore }, ...(inspect ? { inspect } : {}) });
  const notices: Notice[] = [];
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  return { actor, tokenStore, calls, notices };
}

const signedIn: SessionEvent = {
  type: 'SIGNED_IN',
  token: 'tok-new',
  authority: ['admin'],
  expire: 1_900_000_000_000,
};

describe('sessionMachine: checking the stored token', () => {
  it('without a token it is signed out and loads nothing', () => {
    const { actor, calls } = start({ token: null });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(calls.loadCurrentUser).toBe(0);
  });

  it('an empty string token counts as signed out', () => {
    const { actor, calls } = start({ token: '' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(calls.loadCurrentUser).toBe(0);
  });

  it('a non-empty token means signed in: the current user loads', async () => {
    const { actor, calls } = start({ token: 'tok-1' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'loadingUser' });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(calls.loadCurrentUser).toBe(1);
    expect(ready.context.user).toEqual(user());
    expect(ready.context.roles).toEqual(['admin']);
  });
});

describe('sessionMachine: signing in', () => {
  it('SIGNED_IN stores the token, keeps what the login returned and loads the user', async () => {
    const { actor, tokenStore, calls } = start();
    actor.send({ ...signedIn, username: 'admin' });
    const loading = actor.getSnapshot();
    expect(loading.value).toEqual({ signedIn: 'loadingUser' });
    expect(tokenStore.get()).toBe('tok-new');
    expect(loading.context).toMatchObject({
      displayName: 'admin',
      authority: ['admin'],
      roles: ['admin'],
      expire: 1_900_000_000_000,
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(calls.loadCurrentUser).toBe(1);
  });
});

describe('sessionMachine: the display name', () => {
  it('an empty display name is filled from the nickname', async () => {
    const { actor } = start({ token: 'tok', users: [user({ nickname: '小王' })] });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.displayName).toBe('小王');
  });

  it('a display name already set (the login username) is kept', async () => {
    const { actor } = start({ users: [user({ nickname: '小王' })] });
    actor.send({ ...signedIn, username: 'wang' });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.displayName).toBe('wang');
  });

  it.each([
    ['null', null],
    ['empty', ''],
  ])('a %s nickname shows 匿名用户', async (_, nickname) => {
    const { actor } = start({ token: 'tok', users: [user({ nickname })] });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.displayName).toBe('匿名用户');
  });

  it('a missing nickname shows 匿名用户', async () => {
    const { nickname: _, ...withoutNickname } = user();
    const { actor } = start({ token: 'tok', users: [withoutNickname as CurrentUser] });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.displayName).toBe('匿名用户');
  });
});

describe('sessionMachine: loading the user', () => {
  it('a failure goes to userFailed with the reason; RETRY loads again', async () => {
    const { actor, calls } = start({
      token: 'tok',
      users: [new ApiError(404, 404, '用户不存在'), user({ nickname: '回来了' })],
    });
    const failed = await waitFor(actor, (s) => s.matches({ signedIn: 'userFailed' }));
    expect(failed.context.error).toBe('用户不存在');
    expect(failed.context.user).toBeNull();

    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'loadingUser' });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.error).toBeNull();
    expect(ready.context.displayName).toBe('回来了');
    expect(calls.loadCurrentUser).toBe(2);
  });

  it('a network failure shows the network message', async () => {
    const { actor } = start({ token: 'tok', users: [new TypeError('fetch failed')] });
    const failed = await waitFor(actor, (s) => s.matches({ signedIn: 'userFailed' }));
    expect(failed.context.error).toBe('网络异常，请检查网络连接');
  });

  it('REFRESH reloads the user and takes the new roles', async () => {
    const { actor, calls } = start({
      token: 'tok',
      users: [user({ roles: ['editor'] }), user({ roles: ['editor', 'operator'] })],
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'REFRESH' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'loadingUser' });
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.roles).toEqual(['editor', 'operator']);
    expect(calls.loadCurrentUser).toBe(2);
  });
});

describe('sessionMachine: signing out', () => {
  it('SIGN_OUT calls the server, then removes the token and clears the session', async () => {
    const { actor, tokenStore, calls, notices } = start({ token: 'tok' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'SIGN_OUT' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'signingOut' });
    // The token stays until the server answered.
    expect(tokenStore.get()).toBe('tok');
    const out = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(calls.signOut).toBe(1);
    expect(tokenStore.get()).toBeNull();
    expect(out.context).toMatchObject({
      user: null,
      displayName: '',
      roles: [],
      authority: [],
      expire: null,
    });
    expect(notices).toEqual([]);
  });

  it('a failed sign-out keeps the token and goes back to ready with an error notice', async () => {
    const { actor, tokenStore, notices } = start({
      token: 'tok',
      signOuts: [new ApiError(409, 409, '退出失败，请重试')],
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'SIGN_OUT' });
    const back = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(tokenStore.get()).toBe('tok');
    expect(back.context.user).toEqual(user());
    expect(notices).toEqual([{ type: 'notify', level: 'error', message: '退出失败，请重试' }]);
  });

  it('a failed sign-out before the user loaded keeps the token and loads the user again', async () => {
    const firstLoad = new Deferred<CurrentUser>();
    const { actor, tokenStore, calls } = start({
      token: 'tok',
      users: [firstLoad],
      signOuts: [new TypeError('fetch failed')],
    });
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(tokenStore.get()).toBe('tok');
    expect(calls).toEqual({ loadCurrentUser: 2, signOut: 1 });
  });

  it('SIGN_OUT from userFailed signs out too', async () => {
    const { actor, tokenStore } = start({ token: 'tok', users: [new ApiError(404, 404, 'x')] });
    await waitFor(actor, (s) => s.matches({ signedIn: 'userFailed' }));
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(tokenStore.get()).toBeNull();
  });
});

describe('sessionMachine: ejection (spec §5) and expiry', () => {
  it('EJECT emits exactly 你没有任何权限！即将退出登录, signs out and removes the token', async () => {
    const { actor, tokenStore, calls, notices } = start({ token: 'tok', users: [user({ roles: [] })] });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'EJECT' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'ejecting' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(notices).toEqual([{ type: 'notify', level: 'error', message: '你没有任何权限！即将退出登录' }]);
    expect(calls.signOut).toBe(1);
    expect(tokenStore.get()).toBeNull();
  });

  it('EJECT removes the token even when the sign-out call fails', async () => {
    const { actor, tokenStore, notices } = start({
      token: 'tok',
      users: [user({ roles: [] })],
      signOuts: [new ApiError(500, 500, 'boom')],
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'EJECT' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(tokenStore.get()).toBeNull();
    expect(notices.map((n) => n.message)).toEqual(['你没有任何权限！即将退出登录']);
  });

  it('a SIGN_OUT during the ejection does not cancel it, even when that sign-out would fail', async () => {
    const ejectCall = new Deferred<void>();
    const { actor, tokenStore, calls } = start({
      token: 'tok',
      users: [user({ roles: [] })],
      signOuts: [ejectCall, new TypeError('fetch failed')],
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'EJECT' });
    actor.send({ type: 'SIGN_OUT' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'ejecting' });
    ejectCall.reject(new TypeError('fetch failed'));
    await waitFor(actor, (s) => !s.matches({ signedIn: 'ejecting' }));
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(tokenStore.get()).toBeNull();
    expect(calls.signOut).toBe(1);
  });

  it('a second EJECT during the ejection does not repeat the notice or the call', async () => {
    const ejectCall = new Deferred<void>();
    const { actor, notices, calls } = start({
      token: 'tok',
      users: [user({ roles: [] })],
      signOuts: [ejectCall],
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'EJECT' });
    actor.send({ type: 'EJECT' });
    ejectCall.resolve();
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(calls.signOut).toBe(1);
    expect(notices.map((n) => n.message)).toEqual(['你没有任何权限！即将退出登录']);
  });

  it.each(['loadingUser', 'ready', 'userFailed'] as const)(
    'EXPIRED (the 401 logout handling) from %s signs out and removes the token',
    async (from) => {
      const { actor, tokenStore, calls } = start({
        token: 'tok',
        users: [
          from === 'loadingUser' ? new Deferred<CurrentUser>() : from === 'ready' ? user() : new Error('x'),
        ],
      });
      await waitFor(actor, (s) => s.matches({ signedIn: from }));
      actor.send({ type: 'EXPIRED' });
      const out = actor.getSnapshot();
      expect(out.value).toBe('signedOut');
      expect(out.context.user).toBeNull();
      expect(tokenStore.get()).toBeNull();
      // Expiry is local: the server already rejected the token, so there is no sign-out call.
      expect(calls.signOut).toBe(0);
    },
  );

  it('after signing out, a new SIGNED_IN starts a fresh session', async () => {
    const { actor, tokenStore } = start({
      token: 'old',
      users: [user({ nickname: '甲' }), user({ nickname: '乙' })],
    });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    actor.send({ type: 'EXPIRED' });
    actor.send(signedIn);
    expect(tokenStore.get()).toBe('tok-new');
    const ready = await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(ready.context.displayName).toBe('乙');
  });
});

describe('sessionView', () => {
  it('is what decide() needs: signed in with the user once loaded, signed out otherwise', async () => {
    const { actor } = start({ token: 'tok' });
    expect(sessionView(actor.getSnapshot())).toEqual({ signedIn: true, user: null });
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }));
    expect(sessionView(actor.getSnapshot())).toEqual({ signedIn: true, user: user() });
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(sessionView(actor.getSnapshot())).toEqual({ signedIn: false, user: null });
  });
});

describe('sessionMachine: coverage', () => {
  it('reaches every state and takes every transition of its definition', async () => {
    const t = trace('session');

    // checking → signedOut → SIGNED_IN → loadingUser → userFailed → RETRY → ready → REFRESH →
    // ready → SIGN_OUT (fails, user known) → ready → SIGN_OUT → signedOut
    const a = start({
      inspect: t.inspect,
      users: [new Error('x'), user(), user()],
      signOuts: [new Error('offline')],
    });
    a.actor.send(signedIn);
    await waitFor(a.actor, (s) => s.matches({ signedIn: 'userFailed' }));
    a.actor.send({ type: 'RETRY' });
    await waitFor(a.actor, (s) => s.matches({ signedIn: 'ready' }));
    a.actor.send({ type: 'REFRESH' });
    await waitFor(a.actor, (s) => s.matches({ signedIn: 'ready' }));
    a.actor.send({ type: 'SIGN_OUT' });
    await waitFor(a.actor, (s) => s.matches({ signedIn: 'ready' }) && a.calls.signOut === 1);
    a.actor.send({ type: 'SIGN_OUT' });
    await waitFor(a.actor, (s) => s.matches('signedOut'));

    // checking → signedIn; SIGN_OUT before the user loaded fails → loadingUser; EJECT, ignoring
    // SIGN_OUT and EJECT meanwhile (ok); SIGNED_IN; EJECT (fails); SIGNED_IN; EXPIRED
    const pending = new Deferred<CurrentUser>();
    const ejectCall = new Deferred<void>();
    const b = start({
      inspect: t.inspect,
      token: 'tok',
      users: [pending],
      signOuts: [new Error('offline'), ejectCall, new Error('offline')],
    });
    b.actor.send({ type: 'SIGN_OUT' });
    await waitFor(b.actor, (s) => s.matches({ signedIn: 'ready' }));
    b.actor.send({ type: 'EJECT' });
    b.actor.send({ type: 'SIGN_OUT' });
    b.actor.send({ type: 'EJECT' });
    ejectCall.resolve();
    await waitFor(b.actor, (s) => s.matches('signedOut'));
    b.actor.send(signedIn);
    await waitFor(b.actor, (s) => s.matches({ signedIn: 'ready' }));
    b.actor.send({ type: 'EJECT' });
    await waitFor(b.actor, (s) => s.matches('signedOut') && b.calls.signOut === 3);
    b.actor.send(signedIn);
    b.actor.send({ type: 'EXPIRED' });

    const expectedStates = statesOf(sessionMachine);
    expect(expectedStates).toContain('session.checking');
    expect([...t.states].sort()).toEqual(expectedStates);
    expect([...t.transitions].sort()).toEqual(transitionsOf(sessionMachine));
  });
});
