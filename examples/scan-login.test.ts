/**
 * Scan-to-login with core's qrLoginMachine: the three ports are plain functions here, and time is
 * xstate's SimulatedClock — how a host (a browser screen, the CLI) would drive it, with no network.
 *
 * Run it with the rest of the suite: `npx vitest run --project examples`.
 */
import { type QrLoginEvent, type QrStatus, type QrTicket, qrLoginMachine } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock, toPromise, waitFor } from 'xstate';

describe('scan login with fakes', () => {
  it('ticket → scanned (pushed) → confirmed → the session to hand to SIGNED_IN', async () => {
    const clock = new SimulatedClock();
    let push: (event: QrLoginEvent) => void = () => undefined;
    const machine = qrLoginMachine.provide({
      actors: {
        // 1. POST /api/login/qr in the app.
        requestTicket: fromPromise<QrTicket>(async () => ({
          ticket: 'abc',
          expire: clock.now() + 120_000,
          expiresIn: 120_000,
          confirmUrl: 'https://wanxiang.example/scan_login/confirm/abc',
        })),
        // 2. GET /api/login/qr/{ticket}: here it hands out the token the first time it is asked.
        fetchStatus: fromPromise<QrStatus, { ticket: string }>(async () => ({
          status: 'confirmed',
          token: 'new-session-token',
          expire: clock.now() + 7 * 86_400_000,
          authority: ['editor'],
          username: 'editor',
        })),
        // 3. The /ws subscription: keep `sendBack` to push statuses as the server would.
        watchStatus: fromCallback<QrLoginEvent, { ticket: string }>(({ sendBack }) => {
          push = sendBack;
          sendBack({ type: 'PUSH_OPEN' });
        }),
      },
    });
    const actor = createActor(machine, { clock, input: { now: () => clock.now() } }).start();

    const waiting = await waitFor(actor, (s) => s.matches({ waiting: { progress: 'pending' } }));
    expect(waiting.context.ticket?.confirmUrl).toContain('/scan_login/confirm/abc'); // draw this as a QR code
    clock.increment(30_000);
    expect(Math.ceil(actor.getSnapshot().context.remainingMs / 1000)).toBe(90); // the countdown

    push({ type: 'STATUS', status: 'scanned' });
    expect(actor.getSnapshot().matches({ waiting: { progress: 'scanned' } })).toBe(true);
    push({ type: 'STATUS', status: 'confirmed' }); // a push never carries the token: one GET collects it

    const session = await toPromise(actor);
    expect(session).toEqual({
      token: 'new-session-token',
      authority: ['editor'],
      expire: expect.any(Number),
      username: 'editor',
    });
  });
});
