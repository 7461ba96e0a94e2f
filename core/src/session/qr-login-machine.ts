/**
 * Scan-to-login on the waiting side (/scan_login's QR tab, `wanxiang login`): request a ticket,
 * show it as a QR code with a countdown, follow its status until a signed-in user confirms on
 * another device, then output the new session for the host to hand to the session machine
 * (SIGNED_IN, as the password form does).
 *
 * Status arrives through two ports: `watchStatus` (the `/ws` push channel; it reports whether it
 * is open) and `fetchStatus` (a GET, polled every QR_POLL_INTERVAL_MS while no push channel is
 * open, and rarely while one is, as a safety net). An expired ticket is replaced without asking
 * up to QR_AUTO_REFRESH_LIMIT times in a row; after that (an unattended screen) the user clicks
 * 刷新. Time comes from the `now` input and xstate's clock, so tests need no sleeps.
 */
import { assign, emit, fromCallback, fromPromise, raise, setup } from 'xstate';
import type { SignInResult } from '../contract/envelope';
import { isApiError } from '../http/api-error';
import {
  QR_AUTO_REFRESH_LIMIT,
  QR_POLL_INTERVAL_MS,
  QR_POLL_INTERVAL_PUSHED_MS,
  type QrStatus,
  type QrTicket,
} from '../http/qr-login-api';
import { messages } from '../i18n/zh-CN';
import { describeFailure, type Notice } from './notice';

/** The countdown's step. */
export const QR_TICK_MS = 1_000;

export const qrLoginMessages = {
  tokenAlreadyTaken: '登录凭证已被领取，请重新获取二维码',
} as const;

export interface QrLoginInput {
  /** The local clock (Date.now by default); the countdown runs against it. */
  now?: () => number;
}

export type QrLoginOutput = SignInResult & { username: string };

export interface QrLoginContext {
  now: () => number;
  ticket: QrTicket | null;
  /** Local epoch ms when the current ticket expires. */
  deadline: number;
  /** For the countdown; whole seconds are `Math.ceil(remainingMs / 1000)`. */
  remainingMs: number;
  /** Whether the push channel is open for the current ticket. */
  pushing: boolean;
  /** Tickets replaced automatically since the user last asked for one. */
  autoRefreshes: number;
  /** Tickets requested by this actor in all. */
  tickets: number;
  failure: { code: number | null; message: string } | null;
  result: QrLoginOutput | null;
}

export type QrLoginEvent =
  | { type: 'REFRESH' }
  | ({ type: 'STATUS' } & QrStatus)
  | { type: 'PUSH_OPEN' }
  | { type: 'PUSH_CLOSED' };

type StatusEvent = Extract<QrLoginEvent, { type: 'STATUS' }>;

const statusIs =
  (...names: QrStatus['status'][]) =>
  ({ event }: { event: QrLoginEvent }) =>
    event.type === 'STATUS' && names.includes(event.status);

function resultOf(status: QrStatus): QrLoginOutput {
  return {
    token: status.token as string,
    authority: status.authority ?? [],
    expire: status.expire ?? 0,
    username: status.username ?? '',
  };
}

export const qrLoginMachine = setup({
  types: {
    input: {} as QrLoginInput,
    context: {} as QrLoginContext,
    events: {} as QrLoginEvent,
    emitted: {} as Notice,
    output: {} as QrLoginOutput,
  },
  actors: {
    requestTicket: fromPromise<QrTicket>(async () => {
      throw new Error('qrLoginMachine: provide the requestTicket actor');
    }),
    fetchStatus: fromPromise<QrStatus, { ticket: string }>(async () => {
      throw new Error('qrLoginMachine: provide the fetchStatus actor');
    }),
    /** Sends STATUS for every push, PUSH_OPEN once subscribed, PUSH_CLOSED when the channel ends. */
    watchStatus: fromCallback<QrLoginEvent, { ticket: string }>(({ sendBack }) => {
      // No push channel by default: polling alone.
      sendBack({ type: 'PUSH_CLOSED' });
    }),
  },
  delays: {
    pollDelay: ({ context }) => (context.pushing ? QR_POLL_INTERVAL_PUSHED_MS : QR_POLL_INTERVAL_MS),
    tick: QR_TICK_MS,
  },
  guards: {
    confirmedWithToken: ({ event }) =>
      event.type === 'STATUS' && event.status === 'confirmed' && !!event.token,
    confirmed: statusIs('confirmed'),
    cancelled: statusIs('cancelled'),
    expired: statusIs('expired'),
    scanned: statusIs('scanned'),
    pending: statusIs('pending'),
    timeUp: ({ context }) => context.now() >= context.deadline,
    mayAutoRefresh: ({ context }) => context.autoRefreshes < QR_AUTO_REFRESH_LIMIT,
    /** A ticket the server no longer knows (cleaned up, or consumed elsewhere) is over. */
    ticketGone: ({ event }) => {
      const error = (event as { error?: unknown }).error;
      return isApiError(error) && error.status === 404;
    },
    claimedToken: ({ event }) => !!(event as { output?: QrStatus }).output?.token,
  },
  actions: {
    tick: assign(({ context }) => ({ remainingMs: Math.max(0, context.deadline - context.now()) })),
    countAutoRefresh: assign(({ context }) => ({ autoRefreshes: context.autoRefreshes + 1 })),
    userRefresh: assign({ autoRefreshes: 0, failure: null }),
    keepResult: assign(({ event }) => ({ result: resultOf(event as StatusEvent) })),
    notifySignedIn: emit({ type: 'notify', level: 'success', message: messages.loginSucceeded }),
  },
}).createMachine({
  id: 'qrLogin',
  context: ({ input }) => ({
    now: input?.now ?? Date.now,
    ticket: null,
    deadline: 0,
    remainingMs: 0,
    pushing: false,
    autoRefreshes: 0,
    tickets: 0,
    failure: null,
    result: null,
  }),
  initial: 'requesting',
  states: {
    requesting: {
      entry: assign(({ context }) => ({ ticket: null, pushing: false, tickets: context.tickets + 1 })),
      invoke: {
        src: 'requestTicket',
        onDone: {
          target: 'waiting',
          actions: assign(({ context, event }) => {
            const now = context.now();
            // The server says how long is left; its clock and ours need not agree.
            const left = event.output.expiresIn ?? event.output.expire - now;
            return {
              ticket: event.output,
              deadline: now + left,
              remainingMs: Math.max(0, left),
              failure: null,
            };
          }),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ failure: describeFailure(event.error) })),
        },
      },
    },
    failed: {
      on: { REFRESH: { target: 'requesting', actions: 'userRefresh' } },
    },
    waiting: {
      type: 'parallel',
      invoke: {
        src: 'watchStatus',
        input: ({ context }) => ({ ticket: context.ticket?.ticket ?? '' }),
      },
      on: {
        STATUS: [
          { guard: 'confirmedWithToken', target: 'confirmed', actions: 'keepResult' },
          // A push never carries the token: collect it with one read.
          { guard: 'confirmed', target: 'claiming' },
          { guard: 'cancelled', target: 'cancelled' },
          { guard: 'expired', target: 'expired' },
        ],
        REFRESH: { target: 'requesting', actions: 'userRefresh' },
      },
      states: {
        progress: {
          initial: 'pending',
          states: {
            pending: { on: { STATUS: { guard: 'scanned', target: 'scanned' } } },
            // Someone scanned and is deciding on their phone. (A scan is not undone: back to
            // pending never happens, so pending pushes are ignored here.)
            scanned: {},
          },
        },
        poll: {
          initial: 'idle',
          states: {
            idle: {
              after: { pollDelay: 'fetching' },
              // The push channel went away: it may have lost a message, so ask at once.
              on: {
                // Pushes will come: the next poll can wait longer (re-armed with the new delay).
                PUSH_OPEN: { target: 'idle', reenter: true, actions: assign({ pushing: true }) },
                PUSH_CLOSED: { target: 'fetching', actions: assign({ pushing: false }) },
              },
            },
            fetching: {
              on: {
                PUSH_OPEN: { actions: assign({ pushing: true }) },
                PUSH_CLOSED: { actions: assign({ pushing: false }) },
              },
              invoke: {
                src: 'fetchStatus',
                input: ({ context }) => ({ ticket: context.ticket?.ticket ?? '' }),
                onDone: {
                  target: 'idle',
                  actions: raise(({ event }) => ({ type: 'STATUS' as const, ...event.output })),
                },
                onError: [
                  { guard: 'ticketGone', target: '#qrLogin.expired' },
                  // A network hiccup: the next poll tries again.
                  { target: 'idle' },
                ],
              },
            },
          },
        },
        clock: {
          initial: 'running',
          states: {
            running: {
              after: {
                tick: [
                  { guard: 'timeUp', target: '#qrLogin.expired' },
                  { target: 'running', reenter: true, actions: 'tick' },
                ],
              },
            },
          },
        },
      },
    },
    claiming: {
      invoke: {
        src: 'fetchStatus',
        input: ({ context }) => ({ ticket: context.ticket?.ticket ?? '' }),
        onDone: [
          {
            guard: 'claimedToken',
            target: 'confirmed',
            actions: assign(({ event }) => ({ result: resultOf(event.output) })),
          },
          // Another reader (a second tab) collected the token first.
          {
            target: 'failed',
            actions: assign({ failure: { code: null, message: qrLoginMessages.tokenAlreadyTaken } }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ failure: describeFailure(event.error) })),
        },
      },
    },
    expired: {
      entry: assign({ remainingMs: 0, pushing: false }),
      always: { guard: 'mayAutoRefresh', target: 'requesting', actions: 'countAutoRefresh' },
      on: { REFRESH: { target: 'requesting', actions: 'userRefresh' } },
    },
    cancelled: {
      on: { REFRESH: { target: 'requesting', actions: 'userRefresh' } },
    },
    confirmed: {
      type: 'final',
      entry: 'notifySignedIn',
    },
  },
  output: ({ context }) => context.result as QrLoginOutput,
});
