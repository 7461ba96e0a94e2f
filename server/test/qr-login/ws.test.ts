/**
 * `/ws` with a real WebSocket client against the app listening on a free port: subscription by
 * first message, scan-login pushes, user topics behind a token, refusals.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Hub } from '../../src/ws/hub.js';
import { WS_CLOSE } from '../../src/ws/plugin.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';

interface Client {
  socket: WebSocket;
  /** The next message (already received or still to come). */
  next(): Promise<Record<string, unknown>>;
  send(message: unknown): void;
  closed: Promise<{ code: number }>;
}

async function connect(url: string): Promise<Client> {
  const socket = new WebSocket(url);
  const inbox: Record<string, unknown>[] = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const wake = waiting.shift();
    if (wake) wake(message);
    else inbox.push(message);
  });
  const closed = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    next: () => {
      const ready = inbox.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    closed,
  };
}

describe('Hub', () => {
  it('delivers a publish to every subscriber of the topic and to nobody else', () => {
    const hub = new Hub();
    const got: string[] = [];
    const stopA = hub.subscribe('orders', (d) => got.push(`a:${d}`));
    hub.subscribe('orders', (d) => got.push(`b:${d}`));
    hub.subscribe('jobs', (d) => got.push(`c:${d}`));
    expect(hub.publish('orders', 1)).toBe(2);
    stopA();
    expect(hub.publish('orders', 2)).toBe(1);
    expect(hub.publish('nobody', 3)).toBe(0);
    expect(got).toEqual(['a:1', 'b:1', 'b:2']);
    expect(hub.subscriberCount()).toBe(2);
  });

  it('refuses topics no area allowed; user:<id> is the user themself', () => {
    const hub = new Hub();
    const user = { id: 7, username: 'u', nickname: null, avatar: null, roles: [], permissions: [] };
    expect(hub.mayListen(user, 'orders:new')).toBe(false);
    hub.allow('orders:', (u) => u?.roles.includes('admin') ?? false);
    expect(hub.mayListen(user, 'orders:new')).toBe(false);
    expect(hub.mayListen({ ...user, roles: ['admin'] }, 'orders:new')).toBe(true);
    expect(hub.mayListen(user, 'user:7')).toBe(true);
    expect(hub.mayListen(user, 'user:8')).toBe(false);
    expect(hub.mayListen(null, 'user:7')).toBe(false);
  });
});

describe.each(DB_KINDS)('/ws on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let editor: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    editor = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('pushes every status change of a ticket to its login topic, never the token', async () => {
    const { ticket } = (await t.app.inject({ method: 'POST', url: '/api/login/qr' })).json().data;
    const client = await connect(url);
    client.send({ type: 'subscribe', topic: `login:${ticket}` });
    expect(await client.next()).toEqual({ type: 'subscribed', topic: `login:${ticket}` });

    await t.app.inject({ method: 'POST', url: `/api/login/qr/${ticket}/scan`, headers: bearer(editor) });
    expect(await client.next()).toEqual({ topic: `login:${ticket}`, data: { status: 'scanned' } });
    await t.app.inject({ method: 'POST', url: `/api/login/qr/${ticket}/confirm`, headers: bearer(editor) });
    expect(await client.next()).toEqual({ topic: `login:${ticket}`, data: { status: 'confirmed' } });

    // The token is collected over HTTP, once.
    const claim = await t.app.inject({ method: 'GET', url: `/api/login/qr/${ticket}` });
    expect(claim.json().data.token).toEqual(expect.any(String));
    client.socket.close();
    await client.closed;
    // Its subscription went with it.
    expect(t.app.hub.subscriberCount(`login:${ticket}`)).toBe(0);
  });

  it('pushes a cancel, and only to the subscribers of that ticket', async () => {
    const a = (await t.app.inject({ method: 'POST', url: '/api/login/qr' })).json().data.ticket;
    const b = (await t.app.inject({ method: 'POST', url: '/api/login/qr' })).json().data.ticket;
    const onA = await connect(url);
    const onB = await connect(url);
    onA.send({ type: 'subscribe', topic: `login:${a}` });
    onB.send({ type: 'subscribe', topic: `login:${b}` });
    await onA.next();
    await onB.next();
    await t.app.inject({ method: 'POST', url: `/api/login/qr/${a}/scan`, headers: bearer(editor) });
    await t.app.inject({ method: 'POST', url: `/api/login/qr/${a}/cancel`, headers: bearer(editor) });
    expect(await onA.next()).toMatchObject({ data: { status: 'scanned' } });
    expect(await onA.next()).toMatchObject({ data: { status: 'cancelled' } });
    // B hears its own ticket's news only.
    await t.app.inject({ method: 'POST', url: `/api/login/qr/${b}/scan`, headers: bearer(editor) });
    expect(await onB.next()).toEqual({ topic: `login:${b}`, data: { status: 'scanned' } });
    onA.socket.close();
    onB.socket.close();
  });

  it('user topics need the token in the first message, and only the user’s own', async () => {
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/user/current', headers: bearer(editor) })
    ).json().data.id as number;

    const anonymous = await connect(url);
    anonymous.send({ type: 'subscribe', topic: `user:${me}` });
    expect(await anonymous.next()).toEqual({ type: 'error', message: '登录已失效，请重新登录' });
    expect((await anonymous.closed).code).toBe(WS_CLOSE.unauthorized);

    const wrongToken = await connect(url);
    wrongToken.send({ type: 'subscribe', topic: `user:${me}`, token: 'B'.repeat(43) });
    expect((await wrongToken.closed).code).toBe(WS_CLOSE.unauthorized);

    const someoneElse = await connect(url);
    someoneElse.send({ type: 'subscribe', topic: `user:${me + 1}`, token: editor });
    expect(await someoneElse.next()).toEqual({ type: 'error', message: '没有权限订阅该主题' });
    expect((await someoneElse.closed).code).toBe(WS_CLOSE.forbidden);

    const owner = await connect(url);
    owner.send({ type: 'subscribe', topic: `user:${me}`, token: editor });
    expect(await owner.next()).toEqual({ type: 'subscribed', topic: `user:${me}` });
    expect(t.app.hub.publish(`user:${me}`, { kind: 'job-alert', jobId: 3 })).toBe(1);
    expect(await owner.next()).toEqual({ topic: `user:${me}`, data: { kind: 'job-alert', jobId: 3 } });
    owner.socket.close();
  });

  it('refuses topics nobody allowed and malformed messages, with a close code', async () => {
    const unknown = await connect(url);
    unknown.send({ type: 'subscribe', topic: 'orders:new' });
    expect((await unknown.closed).code).toBe(WS_CLOSE.unauthorized);

    for (const bad of [
      'not json',
      { type: 'subscribe' },
      { type: 'dance', topic: 'login:x' },
      { topic: 'login:' },
    ]) {
      const client = await connect(url);
      client.send(bad);
      expect(await client.next()).toEqual({ type: 'error', message: '消息格式错误' });
      expect((await client.closed).code).toBe(WS_CLOSE.badMessage);
    }
  });

  it('ends a subscription on unsubscribe', async () => {
    const client = await connect(url);
    client.send({ type: 'subscribe', topic: 'login:some-ticket-value' });
    await client.next();
    expect(t.app.hub.subscriberCount('login:some-ticket-value')).toBe(1);
    client.send({ type: 'unsubscribe', topic: 'login:some-ticket-value' });
    // A round trip after the unsubscribe proves it was handled.
    client.send({ type: 'subscribe', topic: 'login:another-ticket' });
    await client.next();
    expect(t.app.hub.subscriberCount('login:some-ticket-value')).toBe(0);
    client.socket.close();
  });
});
