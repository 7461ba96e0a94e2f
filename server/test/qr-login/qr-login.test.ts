/** API.md "Scan login" through HTTP, on every database kind, with the test clock (no sleeps). */
import { createHash } from 'node:crypto';
import { QR_CLAIM_WINDOW_MS, QR_TICKET_TTL_MS, QR_TICKETS_PER_MINUTE } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteOldTickets, KEEP_AFTER_EXPIRY_MS, qrDb } from '../../src/domain/qr-login/tickets.js';
import {
  createTestDatabase,
  DB_KINDS,
  DEMO_PASSWORD,
  startTestApp,
  type TestApp,
  TestClock,
} from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';

describe.each(DB_KINDS)('scan login on %s', (kind) => {
  let t: TestApp;
  let editor: string;
  let operator: string;
  /** Each test asks from its own address, so the per-address limit never couples tests. */
  let address = 0;
  const nextAddress = () => `10.0.0.${++address}`;

  beforeAll(async () => {
    t = await startTestApp(kind);
    editor = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    operator = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
  });
  afterAll(async () => t?.close());

  async function newTicket(remoteAddress = nextAddress()) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/qr',
      headers: { 'user-agent': BROWSER, host: 'wx.example.com:8443' },
      remoteAddress,
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { ticket: string; expire: number; expiresIn: number; confirmUrl: string };
  }
  const status = (ticket: string) => t.app.inject({ method: 'GET', url: `/api/login/qr/${ticket}` });
  const act = (ticket: string, action: 'scan' | 'confirm' | 'cancel', token: string | null) =>
    t.app.inject({
      method: 'POST',
      url: `/api/login/qr/${ticket}/${action}`,
      headers: token ? bearer(token) : {},
    });
  const conflictOf = async (res: Awaited<ReturnType<typeof act>>) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, errorCode: 409 });
    return res.json().message as string;
  };

  it('hands out a random ticket for 2 minutes with an absolute confirm URL; stores only its hash', async () => {
    const now = t.clock.now();
    const a = await newTicket();
    const b = await newTicket();
    expect(a.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.ticket).not.toBe(b.ticket);
    expect(a.expire).toBe(now + QR_TICKET_TTL_MS);
    expect(a.expiresIn).toBe(QR_TICKET_TTL_MS);
    expect(a.confirmUrl).toBe(`http://wx.example.com:8443/scan_login/confirm/${a.ticket}`);

    const rows = await qrDb(t.app.db).selectFrom('qr_login_tickets').select('id').execute();
    const ids = rows.map((r) => r.id);
    expect(ids).toContain(createHash('sha256').update(a.ticket).digest('hex'));
    expect(ids).not.toContain(a.ticket);

    const res = await status(a.ticket);
    expect(res.json()).toEqual({
      success: true,
      data: { status: 'pending', expire: a.expire, expiresIn: QR_TICKET_TTL_MS },
    });
  });

  it('scan → confirm: the waiting side gets a token for the scanning user, exactly once', async () => {
    const { ticket } = await newTicket('10.9.9.9');
    const scan = await act(ticket, 'scan', editor);
    expect(scan.statusCode).toBe(200);
    // Who asks: the confirm screen shows the waiting side's address and browser.
    expect(scan.json().data).toEqual({
      status: 'scanned',
      expire: expect.any(Number),
      client: { ip: '10.9.9.9', userAgent: BROWSER, requestedAt: t.clock.now() },
    });
    expect((await status(ticket)).json().data.status).toBe('scanned');
    // Opening the confirm screen again is fine.
    expect((await act(ticket, 'scan', editor)).statusCode).toBe(200);

    const confirm = await act(ticket, 'confirm', editor);
    expect(confirm.json()).toMatchObject({ success: true, data: { status: 'confirmed' } });

    const first = await status(ticket);
    expect(first.json()).toMatchObject({
      success: true,
      data: { status: 'confirmed', authority: ['editor'], username: 'editor' },
    });
    const { token, expire } = first.json().data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(editor);
    expect(expire).toBe(t.clock.now() + t.config.sessionTtlMs);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/current', headers: bearer(token) });
    expect(me.json().data.username).toBe('editor');

    // Consumed: nobody gets it again.
    const second = await status(ticket);
    expect(second.statusCode).toBe(404);
    expect(second.json().message).toBe('二维码不存在或已失效，请在登录页重新获取');
    expect((await act(ticket, 'scan', editor)).statusCode).toBe(404);
  });

  it('two readers racing for the token: one gets it, the other a 404', async () => {
    const { ticket } = await newTicket();
    await act(ticket, 'scan', operator);
    await act(ticket, 'confirm', operator);
    const answers = await Promise.all([status(ticket), status(ticket), status(ticket)]);
    expect(answers.filter((r) => r.json().data?.token).length).toBe(1);
    expect(answers.filter((r) => r.statusCode === 404).length).toBe(2);
  });

  it('cancel by the scanning user: status cancelled, nothing can follow', async () => {
    const { ticket } = await newTicket();
    await act(ticket, 'scan', editor);
    const cancel = await act(ticket, 'cancel', editor);
    expect(cancel.json()).toMatchObject({ success: true, data: { status: 'cancelled' } });
    expect((await status(ticket)).json().data.status).toBe('cancelled');
    expect(await conflictOf(await act(ticket, 'confirm', editor))).toBe(
      '本次登录已取消，请在登录页重新获取二维码',
    );
    expect(await conflictOf(await act(ticket, 'scan', editor))).toBe(
      '本次登录已取消，请在登录页重新获取二维码',
    );
    // Even after the ticket's time, cancelled stays cancelled.
    t.clock.advance(QR_TICKET_TTL_MS);
    expect((await status(ticket)).json().data.status).toBe('cancelled');
  });

  it('answers illegal transitions with 409 and a Chinese reason', async () => {
    const { ticket } = await newTicket();
    expect(await conflictOf(await act(ticket, 'confirm', editor))).toBe('请先扫码再确认');
    expect(await conflictOf(await act(ticket, 'cancel', editor))).toBe('请先扫码再确认');
    await act(ticket, 'scan', editor);
    // Only the user who scanned may go on.
    expect(await conflictOf(await act(ticket, 'scan', operator))).toBe('该二维码已被其他账号扫描');
    expect(await conflictOf(await act(ticket, 'confirm', operator))).toBe('该二维码已被其他账号扫描');
    expect(await conflictOf(await act(ticket, 'cancel', operator))).toBe('该二维码已被其他账号扫描');
    await act(ticket, 'confirm', editor);
    expect(await conflictOf(await act(ticket, 'confirm', editor))).toBe('本次登录已确认，无需重复操作');
    expect(await conflictOf(await act(ticket, 'cancel', editor))).toBe('本次登录已确认，无需重复操作');
  });

  it('needs a signed-in user to scan, confirm or cancel', async () => {
    const { ticket } = await newTicket();
    for (const action of ['scan', 'confirm', 'cancel'] as const) {
      const res = await act(ticket, action, null);
      expect(res.statusCode).toBe(401);
    }
    expect((await status(ticket)).json().data.status).toBe('pending');
  });

  it('answers 404 for an unknown ticket and 422 for one that cannot be a ticket', async () => {
    const unknown = 'A'.repeat(43);
    expect((await status(unknown)).statusCode).toBe(404);
    expect((await act(unknown, 'scan', editor)).statusCode).toBe(404);
    const short = await status('short');
    expect(short.statusCode).toBe(422);
    expect(short.json().data.fields.ticket).toMatch(/^二维码编号/);
    expect((await status('bad%20ticket%20with%20spaces')).statusCode).toBe(422);
  });

  it('expires after 2 minutes: status expired, and no scan or confirm afterwards', async () => {
    const { ticket } = await newTicket();
    t.clock.advance(QR_TICKET_TTL_MS - 1);
    expect((await status(ticket)).json().data).toMatchObject({ status: 'pending', expiresIn: 1 });
    t.clock.advance(1);
    expect((await status(ticket)).json().data).toMatchObject({ status: 'expired', expiresIn: 0 });
    expect(await conflictOf(await act(ticket, 'scan', editor))).toBe(
      '二维码已过期，请在登录页刷新后重新扫码',
    );

    // Scanned but not confirmed in time.
    const late = await newTicket();
    await act(late.ticket, 'scan', editor);
    t.clock.advance(QR_TICKET_TTL_MS);
    expect(await conflictOf(await act(late.ticket, 'confirm', editor))).toBe(
      '二维码已过期，请在登录页刷新后重新扫码',
    );
  });

  it('a confirmed token waits QR_CLAIM_WINDOW_MS to be collected, then is gone', async () => {
    const { ticket } = await newTicket();
    await act(ticket, 'scan', editor);
    // Confirmed at the last moment: the window starts at the confirmation, not the ticket.
    t.clock.advance(QR_TICKET_TTL_MS - 1000);
    await act(ticket, 'confirm', editor);
    t.clock.advance(QR_CLAIM_WINDOW_MS);
    expect((await status(ticket)).json().data).toMatchObject({ status: 'expired' });
    expect((await status(ticket)).json().data.token).toBeUndefined();
  });

  it('mints no token for a user disabled between the confirmation and the collection', async () => {
    const guest = await tokenOf(t.app, 'guest', DEMO_PASSWORD);
    const { ticket } = await newTicket();
    await act(ticket, 'scan', guest);
    await act(ticket, 'confirm', guest);
    await t.app.db.updateTable('users').set({ status: 'disabled' }).where('username', '=', 'guest').execute();
    try {
      const res = await status(ticket);
      expect(res.json()).toEqual({ success: false, errorCode: 10003, message: '账号已停用，请联系管理员' });
      // Used up all the same: the ticket cannot be tried again once the account is back.
      expect((await status(ticket)).statusCode).toBe(404);
      // A disabled user cannot scan at all (their session is refused).
      const other = await newTicket();
      expect((await act(other.ticket, 'scan', guest)).json()).toMatchObject({ errorCode: 1 });
    } finally {
      await t.app.db.updateTable('users').set({ status: 'active' }).where('username', '=', 'guest').execute();
    }
  });

  it(`limits tickets to ${QR_TICKETS_PER_MINUTE} a minute per address (429 with Retry-After)`, async () => {
    const ip = '10.1.2.3';
    for (let i = 0; i < QR_TICKETS_PER_MINUTE; i++) {
      await newTicket(ip);
      t.clock.advance(1000);
    }
    const refused = await t.app.inject({ method: 'POST', url: '/api/login/qr', remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, errorCode: 429 });
    expect(refused.json().message).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
    // The oldest counted ticket leaves the window after 60 s from its creation: 30 s from now.
    expect(refused.headers['retry-after']).toBe('30');
    // Another address is not affected.
    await newTicket('10.1.2.4');
    t.clock.advance(30_000);
    await newTicket(ip);
  });

  it('deletes tickets some minutes after they expired', async () => {
    const { ticket } = await newTicket();
    const count = async () =>
      Number(
        (
          await qrDb(t.app.db)
            .selectFrom('qr_login_tickets')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('id', '=', createHash('sha256').update(ticket).digest('hex'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await deleteOldTickets(t.app.db, t.clock.now() + QR_TICKET_TTL_MS);
    expect(await count()).toBe(1);
    await deleteOldTickets(t.app.db, t.clock.now() + QR_TICKET_TTL_MS + KEEP_AFTER_EXPIRY_MS);
    expect(await count()).toBe(0);
  });
});

describe.each(DB_KINDS)('scan-login tickets across a restart on %s', (kind) => {
  it('a ticket issued before a restart is confirmed and collected after it', async () => {
    const db = await createTestDatabase(kind);
    const clock = new TestClock();
    try {
      const first = await startTestApp(kind, { db, clock });
      const created = await first.app.inject({ method: 'POST', url: '/api/login/qr' });
      const { ticket } = created.json().data;
      await first.close();

      const second = await startTestApp(kind, { db, clock });
      try {
        const editor = await tokenOf(second.app, 'editor', DEMO_PASSWORD);
        await second.app.inject({
          method: 'POST',
          url: `/api/login/qr/${ticket}/scan`,
          headers: bearer(editor),
        });
        await second.app.inject({
          method: 'POST',
          url: `/api/login/qr/${ticket}/confirm`,
          headers: bearer(editor),
        });
        const res = await second.app.inject({ method: 'GET', url: `/api/login/qr/${ticket}` });
        expect(res.json().data).toMatchObject({ status: 'confirmed', username: 'editor' });
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe.each(DB_KINDS)('scan-login confirm URL with PUBLIC_URL on %s', (kind) => {
  // Issue 18: confirmUrl came from the Host header, so whoever asked chose where the QR code points.
  it('comes from the configured public URL whatever Host or X-Forwarded-* say', async () => {
    const t = await startTestApp(kind, {
      config: { publicUrl: 'https://wx.example.com', trustProxy: true },
    });
    try {
      for (const headers of [
        { host: 'evil.example' },
        { host: 'evil.example:8443', 'x-forwarded-host': 'phish.example', 'x-forwarded-proto': 'http' },
        {},
      ]) {
        const res = await t.app.inject({ method: 'POST', url: '/api/login/qr', headers });
        expect(res.statusCode).toBe(200);
        const { ticket, confirmUrl } = res.json().data;
        expect(confirmUrl).toBe(`https://wx.example.com/scan_login/confirm/${ticket}`);
      }
    } finally {
      await t.close();
    }
  });
});
