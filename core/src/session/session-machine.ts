/**
 * The signed-in state of one client (spec §3, §4): a non-empty stored token means signed in; the
 * current user is then loaded; an empty display name is filled from it (the anonymous label when
 * there is no nickname). Sign-out calls the server and removes the token on HTTP 200. EJECT is the
 * spec §5 path for a user without admin access; EXPIRED is the 401 logout handling.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { CurrentUser, SignInResult } from '../contract/envelope';
import { hasToken, type TokenStore } from '../http/ports';
import { messages } from '../i18n/zh-CN';
import { describeFailure, type Notice } from './notice';

export interface SessionInput {
  tokenStore: TokenStore;
}

export interface SessionContext {
  tokenStore: TokenStore;
  user: CurrentUser | null;
  /** `_username` of spec §3: what the header shows. */
  displayName: string;
  roles: string[];
  authority: string[];
  /** Epoch ms when the token expires, when known. */
  expire: number | null;
  error: string | null;
}

export type SessionEvent =
  | ({ type: 'SIGNED_IN'; username?: string } & SignInResult)
  | { type: 'SIGN_OUT' }
  | { type: 'EJECT' }
  | { type: 'EXPIRED' }
  | { type: 'RETRY' }
  | { type: 'REFRESH' };

const signedOutContext = { user: null, displayName: '', roles: [], authority: [], expire: null, error: null };

export const sessionMachine = setup({
  types: {
    input: {} as SessionInput,
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as Notice,
  },
  actors: {
    loadCurrentUser: fromPromise<CurrentUser>(async () => {
      throw new Error('sessionMachine: provide the loadCurrentUser actor');
    }),
    signOut: fromPromise<void>(async () => {
      throw new Error('sessionMachine: provide the signOut actor');
    }),
  },
  guards: {
    hasStoredToken: ({ context }) => hasToken(context.tokenStore),
    hasUser: ({ context }) => context.user !== null,
  },
  actions: {
    storeToken: ({ context, event }) => {
      if (event.type === 'SIGNED_IN') context.tokenStore.set(event.token);
    },
    removeToken: ({ context }) => context.tokenStore.remove(),
    clear: assign(signedOutContext),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ tokenStore: input.tokenStore, ...signedOutContext }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'hasStoredToken', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      entry: 'clear',
      on: {
        SIGNED_IN: {
          target: 'signedIn',
          actions: [
            'storeToken',
            assign(({ event }) => ({
              displayName: event.username ?? '',
              authority: event.authority,
              roles: event.authority,
              expire: event.expire,
            })),
          ],
        },
      },
    },
    signedIn: {
      initial: 'loadingUser',
      on: {
        // The HTTP layer already removed the token on a 401; removing again is harmless.
        EXPIRED: { target: 'signedOut', actions: 'removeToken' },
        SIGN_OUT: '.signingOut',
        EJECT: '.ejecting',
      },
      states: {
        loadingUser: {
          invoke: {
            src: 'loadCurrentUser',
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                user: event.output,
                roles: event.output.roles,
                displayName: context.displayName || event.output.nickname || messages.anonymous,
                error: null,
              })),
            },
            onError: {
              target: 'userFailed',
              actions: assign(({ event }) => ({ error: describeFailure(event.error).message })),
            },
          },
        },
        userFailed: {
          on: { RETRY: 'loadingUser' },
        },
        ready: {
          on: { REFRESH: 'loadingUser' },
        },
        signingOut: {
          invoke: {
            src: 'signOut',
            onDone: { target: '#session.signedOut', actions: 'removeToken' },
            onError: [
              {
                guard: 'hasUser',
                target: 'ready',
                actions: emit(({ event }) => ({
                  type: 'notify' as const,
                  level: 'error' as const,
                  message: describeFailure(event.error).message,
                })),
              },
              { target: 'loadingUser' },
            ],
          },
        },
        ejecting: {
          entry: emit({ type: 'notify', level: 'error', message: messages.noPermission }),
          // Already on the way out: a SIGN_OUT must not restart the call (a failed one would keep
          // the user in), and a second EJECT must not repeat the notice.
          on: { SIGN_OUT: {}, EJECT: {} },
          invoke: {
            src: 'signOut',
            // Out either way: a user without rights must not stay in, even if the call failed.
            onDone: { target: '#session.signedOut', actions: 'removeToken' },
            onError: { target: '#session.signedOut', actions: 'removeToken' },
          },
        },
      },
    },
  },
});
