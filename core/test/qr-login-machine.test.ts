/**
 * The scan-login machine in isolation: its three ports (ticket request, status read, push
 * channel) are fakes, and time is xstate's SimulatedClock — no server, no sockets, no sleeps.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock, toPromise, waitFor } from 'xstate';
import {
  ApiError,
  type Notice,
  QR_AUTO_REFRESH_LIMIT,
  QR_POLL_INTERVAL_MS,
  QR_POLL_INTERVAL_PUSHED_MS,
  type QrLoginEvent,
  type QrStatus,
  type QrTicket,
  qrLoginMachine,
} from '../src/index';
import { statesOf, trace, transitionsOf } from './support/machine-trace';

const TTL = 120_000;
const START = Date.UTC(2025, 0, 1, 8, 0, 0);

interface Fakes {
  /** Each request answers the next entry; an Error fails it; missing entries mint t-<n>. */
  tickets?: (Partial<QrTicket> | Error)[];
  /** Each status read answers the next entry (an Error fails it); missing entries are pending. */
  statuses?: (QrStatus | Error)[];
  /** Whether the push channel opens (it reports PUSH_OPEN) or is unavailable (PUSH_CLOSED). */
  push?: boolean;
}

function start(fakes: Fakes = {}, inspect?: ReturnType<typeof trace>['inspect']) {
  const clock = new SimulatedClock();
  clock.set(START);
  const requested: string[] = [];
  const reads: string[] = [];
  const watching: string[] = [];
  let pushTo: ((event: QrLoginEvent) => void) | null = null;
  let n = 0;
  let r = 0;
  const machine = qrLoginMachine.provide({
    actors: {
      requestTicket: fromPromise<QrTicket>(async () => {
        n++;
        const next = fakes.tickets?.[n - 1] ?? {};
        if (next instanceof Error) throw next;
        const ticket = `t-${n}`;
        requested.push(ticket);
        return {
          ticket,
          expire: clock.now() + TTL,
          confirmUrl: `https://wx.example/scan_login/confirm/${ticket}`,
          ...next,
        };
      }),
      fetchStatus: fromPromise<QrStatus, { ticket: string }>(async ({ input }) => {
        reads.push(input.ticket);
        const next = fakes.statuses?.[r++] ?? { status: 'pending' };
        if (next instanceof Error) throw next;
        return next;
      }),
      watchStatus: fromCallback<QrLoginEvent, { ticket: string }>(({ sendBack, input }) => {
        watching.push(input.ticket);
        pushTo = sendBack;
        sendBack({ type: fakes.push === false ? 'PUSH_CLOSED' : 'PUSH_OPEN' });
        return () => {
          watching.push(`closed ${input.ticket}`);
          pushTo = null;
        };
      }),
    },
  });
  const actor = createActor(machine, {
    clock,
    input: { now: () => clock.now() },
    ...(inspect ? { inspect } : {}),
  });
  const notices: Notice[] = [];
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  const push = (status: QrStatus) => {
    if (!pushTo) throw new Error('no push channel is open');
    pushTo({ type: 'STATUS', ...status });
  };
  /** Advances the simulated clock and lets the promise actors it started settle. */
  const advance = async (ms: number) => {
    clock.increment(ms);
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { actor, clock, requested, reads, watching, notices, push, advance };
}

const at = (state: string) => (s: { matches(v: never): boolean }) => s.matches(state as never);
const waitingIn = (progress: 'pending' | 'scanned') => (s: { matches(v: never): boolean }) =>
  s.matches({ waiting: { progress } } as never);

describe('qrLoginMachine', () => {
  it('requests a ticket, waits for a scan with a countdown from the ticket’s expiry', async () => {
    const t = start();
    expect(t.actor.getSnapshot().value).toBe('requesting');
    const waiting = await waitFor(t.actor, waitingIn('pending'));
    expect(waiting.context.ticket).toMatchObject({
      ticket: 't-1',
      confirmUrl: 'https://wx.example/scan_login/confirm/t-1',
    });
    expect(waiting.context.remainingMs).toBe(TTL);
    expect(t.watching).toEqual(['t-1']);

    await t.advance(1_000);
    expect(t.actor.getSnapshot().context.remainingMs).toBe(TTL - 1_000);
    await t.advance(29_000);
    expect(Math.ceil(t.actor.getSnapshot().context.remainingMs / 1000)).toBe(90);
  });

  it('counts down from expiresIn when the server gives it: a skewed local clock does not matter', async () => {
    // The server's clock is an hour behind ours: by `expire` alone the ticket would be long gone.
    const t = start({ tickets: [{ expire: START - 3_600_000 + TTL, expiresIn: TTL }] });
    const waiting = await waitFor(t.actor, waitingIn('pending'));
    expect(waiting.context.remainingMs).toBe(TTL);
    await t.advance(60_000);
    expect(t.actor.getSnapshot().matches({ waiting: { progress: 'pending' } })).toBe(true);
  });

  it('follows pushes: scanned, then confirmed — and collects the token with one read', async () => {
    const t = start({
      statuses: [
        {
          status: 'confirmed',
          token: 'tok-qr',
          expire: START + 7 * 86_400_000,
          authority: ['editor'],
          username: 'editor',
        },
      ],
    });
    await waitFor(t.actor, waitingIn('pending'));
    t.push({ status: 'scanned' });
    expect(t.actor.getSnapshot().matches({ waiting: { progress: 'scanned' } })).toBe(true);
    // A pending push after the scan changes nothing.
    t.push({ status: 'pending' });
    expect(t.actor.getSnapshot().matches({ waiting: { progress: 'scanned' } })).toBe(true);

    t.push({ status: 'confirmed' });
    expect(t.actor.getSnapshot().value).toBe('claiming');
    const output = await toPromise(t.actor);
    expect(output).toEqual({
      token: 'tok-qr',
      authority: ['editor'],
      expire: START + 7 * 86_400_000,
      username: 'editor',
    });
    expect(t.reads).toEqual(['t-1']);
    expect(t.notices).toEqual([{ type: 'notify', level: 'success', message: '登录成功' }]);
    // The push channel is closed once the ticket is done with.
    expect(t.watching).toEqual(['t-1', 'closed t-1']);
  });

  it('polls every QR_POLL_INTERVAL_MS when no push channel is open', async () => {
    const t = start({
      push: false,
      statuses: [
        { status: 'pending' },
        { status: 'scanned' },
        { status: 'confirmed', token: 'tok-2', expire: 1, authority: [], username: 'guest' },
      ],
    });
    await waitFor(t.actor, waitingIn('pending'));
    // PUSH_CLOSED at once: one read straight away, in case a message was lost.
    await waitFor(t.actor, () => t.reads.length === 1);
    expect(t.actor.getSnapshot().context.pushing).toBe(false);
    await t.advance(QR_POLL_INTERVAL_MS - 1);
    expect(t.reads).toHaveLength(1);
    await t.advance(1);
    expect(t.reads).toHaveLength(2);
    expect(t.actor.getSnapshot().matches({ waiting: { progress: 'scanned' } })).toBe(true);
    await t.advance(QR_POLL_INTERVAL_MS);
    expect(await toPromise(t.actor)).toMatchObject({ token: 'tok-2', username: 'guest' });
  });

  it('polls only as a safety net while pushes arrive', async () => {
    const t = start();
    await waitFor(t.actor, (s) => s.context.pushing);
    await t.advance(QR_POLL_INTERVAL_MS * 3);
    expect(t.reads).toEqual([]);
    await t.advance(QR_POLL_INTERVAL_PUSHED_MS - QR_POLL_INTERVAL_MS * 3);
    expect(t.reads).toEqual(['t-1']);
  });

  it('keeps polling through a network failure', async () => {
    const t = start({ push: false, statuses: [new TypeError('fetch failed'), { status: 'scanned' }] });
    await waitFor(t.actor, () => t.reads.length === 1);
    expect(t.actor.getSnapshot().matches({ waiting: { progress: 'pending' } })).toBe(true);
    await t.advance(QR_POLL_INTERVAL_MS);
    expect(t.actor.getSnapshot().matches({ waiting: { progress: 'scanned' } })).toBe(true);
  });

  it('replaces an expired ticket by itself, QR_AUTO_REFRESH_LIMIT times in a row, then waits for 刷新', async () => {
    const t = start();
    await waitFor(t.actor, waitingIn('pending'));
    for (let i = 1; i <= QR_AUTO_REFRESH_LIMIT; i++) {
      await t.advance(TTL);
      await waitFor(
        t.actor,
        (s) => s.matches({ waiting: { progress: 'pending' } }) && s.context.ticket?.ticket === `t-${i + 1}`,
      );
      expect(t.actor.getSnapshot().context.autoRefreshes).toBe(i);
    }
    await t.advance(TTL);
    const expired = t.actor.getSnapshot();
    expect(expired.value).toBe('expired');
    expect(expired.context.remainingMs).toBe(0);
    expect(t.requested).toHaveLength(QR_AUTO_REFRESH_LIMIT + 1);
    // Nothing more happens on its own.
    await t.advance(TTL * 3);
    expect(t.actor.getSnapshot().value).toBe('expired');

    t.actor.send({ type: 'REFRESH' });
    const fresh = await waitFor(t.actor, waitingIn('pending'));
    expect(fresh.context.ticket?.ticket).toBe(`t-${QR_AUTO_REFRESH_LIMIT + 2}`);
    expect(fresh.context.autoRefreshes).toBe(0);
    expect(fresh.context.tickets).toBe(QR_AUTO_REFRESH_LIMIT + 2);
  });

  it('treats the server’s expired, and a ticket it no longer knows, as expiry', async () => {
    const t = start();
    await waitFor(t.actor, waitingIn('pending'));
    t.push({ status: 'expired' });
    await waitFor(t.actor, (s) => s.context.ticket?.ticket === 't-2' && s.matches('waiting'));

    const gone = start({ push: false, statuses: [new ApiError(404, 404, '二维码不存在')] });
    await waitFor(gone.actor, (s) => s.context.ticket?.ticket === 't-2' && s.matches('waiting'));
    expect(gone.actor.getSnapshot().context.autoRefreshes).toBe(1);
  });

  it('a cancel on the phone ends in cancelled; REFRESH (重新获取) asks for a new ticket', async () => {
    const t = start();
    await waitFor(t.actor, waitingIn('pending'));
    t.push({ status: 'scanned' });
    t.push({ status: 'cancelled' });
    expect(t.actor.getSnapshot().value).toBe('cancelled');
    expect(t.watching).toEqual(['t-1', 'closed t-1']);
    // A cancelled screen stays put: no ticket is requested behind the user's back.
    await t.advance(TTL * 2);
    expect(t.actor.getSnapshot().value).toBe('cancelled');
    t.actor.send({ type: 'REFRESH' });
    const fresh = await waitFor(t.actor, waitingIn('pending'));
    expect(fresh.context.ticket?.ticket).toBe('t-2');
  });

  it('REFRESH while waiting replaces the ticket', async () => {
    const t = start();
    await waitFor(t.actor, waitingIn('pending'));
    t.actor.send({ type: 'REFRESH' });
    expect(t.actor.getSnapshot().value).toBe('requesting');
    await waitFor(t.actor, (s) => s.context.ticket?.ticket === 't-2');
  });

  it('a failed ticket request shows why; REFRESH tries again', async () => {
    const t = start({ tickets: [new ApiError(429, 429, '操作过于频繁，请 30 秒后再试')] });
    const failed = await waitFor(t.actor, at('failed'));
    expect(failed.context.failure).toEqual({ code: 429, message: '操作过于频繁，请 30 秒后再试' });
    expect(failed.context.ticket).toBeNull();
    t.actor.send({ type: 'REFRESH' });
    const waiting = await waitFor(t.actor, waitingIn('pending'));
    expect(waiting.context.failure).toBeNull();
  });

  it('a token collected by someone else first, or a failed collection, ends in failed', async () => {
    const taken = start({ statuses: [new ApiError(404, 404, '二维码已失效')] });
    await waitFor(taken.actor, waitingIn('pending'));
    taken.push({ status: 'confirmed' });
    const failed = await waitFor(taken.actor, at('failed'));
    expect(failed.context.failure).toEqual({ code: 404, message: '二维码已失效' });

    const empty = start({ statuses: [{ status: 'confirmed' }] });
    await waitFor(empty.actor, waitingIn('pending'));
    empty.push({ status: 'confirmed' });
    const none = await waitFor(empty.actor, at('failed'));
    expect(none.context.failure?.message).toBe('登录凭证已被领取，请重新获取二维码');
  });

  it('reaches every state and takes every transition of its definition', async () => {
    const tr = trace('qrLogin');
    const done: QrStatus = { status: 'confirmed', token: 'x', expire: 1, authority: [], username: 'u' };

    // Pushes: scanned, confirmed → claiming → confirmed; PUSH_OPEN; REFRESH while waiting.
    const a = start({ statuses: [done] }, tr.inspect);
    await waitFor(a.actor, waitingIn('pending'));
    a.actor.send({ type: 'REFRESH' });
    await waitFor(a.actor, waitingIn('pending'));
    a.push({ status: 'scanned' });
    a.push({ status: 'confirmed' });
    await toPromise(a.actor);

    // Polling: PUSH_CLOSED while idle and while fetching, a poll error, the poll delay, ticks,
    // a confirmed poll with its token.
    const b = start(
      { push: false, statuses: [new TypeError('offline'), { status: 'pending' }, done] },
      tr.inspect,
    );
    await waitFor(b.actor, () => b.reads.length === 1);
    await b.advance(QR_POLL_INTERVAL_MS);
    await waitFor(b.actor, () => b.reads.length === 2);
    b.actor.send({ type: 'PUSH_CLOSED' });
    expect(b.actor.getSnapshot().matches({ waiting: { poll: 'fetching' } })).toBe(true);
    b.actor.send({ type: 'PUSH_CLOSED' });
    b.actor.send({ type: 'PUSH_OPEN' });
    await toPromise(b.actor);

    // Expiry by a 404, by the server, by the clock (auto refresh); the limit; REFRESH from expired.
    const c = start({ statuses: [new ApiError(404, 404, 'gone')] }, tr.inspect);
    const onTicket =
      (n: number) => (s: { matches(v: never): boolean; context: { ticket: QrTicket | null } }) =>
        s.matches('waiting' as never) && s.context.ticket?.ticket === `t-${n}`;
    await waitFor(c.actor, onTicket(1));
    await c.advance(QR_POLL_INTERVAL_PUSHED_MS);
    await waitFor(c.actor, onTicket(2));
    c.push({ status: 'expired' });
    await waitFor(c.actor, onTicket(3));
    for (let i = 0; i < QR_AUTO_REFRESH_LIMIT - 2; i++) {
      await c.advance(TTL);
      await waitFor(c.actor, onTicket(4 + i));
    }
    await c.advance(TTL);
    await waitFor(c.actor, at('expired'));
    c.actor.send({ type: 'REFRESH' });
    await waitFor(c.actor, waitingIn('pending'));

    // Cancelled and 重新获取; a failed request and REFRESH; a claim without a token; a failed claim.
    const d = start(
      { tickets: [new TypeError('offline')], statuses: [{ status: 'confirmed' }, new TypeError('offline')] },
      tr.inspect,
    );
    await waitFor(d.actor, at('failed'));
    d.actor.send({ type: 'REFRESH' });
    await waitFor(d.actor, waitingIn('pending'));
    d.push({ status: 'cancelled' });
    d.actor.send({ type: 'REFRESH' });
    await waitFor(d.actor, waitingIn('pending'));
    d.push({ status: 'confirmed' });
    await waitFor(d.actor, at('failed'));
    d.actor.send({ type: 'REFRESH' });
    await waitFor(d.actor, waitingIn('pending'));
    d.push({ status: 'confirmed' });
    await waitFor(d.actor, at('failed'));

    expect([...tr.states].sort()).toEqual(statesOf(qrLoginMachine));
    expect([...tr.transitions].sort()).toEqual(transitionsOf(qrLoginMachine));
  });
});
