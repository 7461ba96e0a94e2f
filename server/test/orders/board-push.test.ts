/**
 * The order board's live feed: a real WebSocket subscribed to core's ORDER_BOARD_TOPIC receives
 * a new order and each move after its commit; a user who may not read orders is refused.
 */
import type { AddressInfo } from 'node:net';
import { ORDER_BOARD_TOPIC } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { type OrderWorld, orderWorld, placeOrder } from './fixture.js';

function listen(url: string, token: string) {
  const socket = new WebSocket(url);
  const inbox: Record<string, unknown>[] = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const wake = waiting.shift();
    if (wake) wake(message);
    else inbox.push(message);
  });
  const open = new Promise<void>((resolve, reject) => {
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'subscribe', topic: ORDER_BOARD_TOPIC, token }));
      resolve();
    });
    socket.once('error', reject);
  });
  const next = () => {
    const ready = inbox.shift();
    return ready
      ? Promise.resolve(ready)
      : new Promise<Record<string, unknown>>((resolve) => waiting.push(resolve));
  };
  return { socket, open, next };
}

describe.each(DB_KINDS)('order board push on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let w: OrderWorld;
  let url: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    w = await orderWorld(t, { balanceFen: 10_000 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
  });
  afterAll(async () => t?.close());

  it('pushes a new order and its payment to the board', async () => {
    const board = listen(url, api.token);
    await board.open;
    expect(await board.next()).toEqual({ type: 'subscribed', topic: ORDER_BOARD_TOPIC });
    const order = await placeOrder(api, w, { fulfilment: 'pickup', address: null });
    expect(await board.next()).toMatchObject({
      topic: ORDER_BOARD_TOPIC,
      data: { type: 'created', order: { id: order.id, orderNo: order.orderNo, status: 'pending_payment' } },
    });
    await api.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'balance' });
    expect(await board.next()).toMatchObject({
      data: { type: 'status', order: { id: order.id, status: 'paid', from: 'pending_payment', move: 'pay' } },
    });
    board.socket.close();
  });

  it('refuses a user without the order permission', async () => {
    const editor = listen(url, await tokenOf(t.app, 'editor', 'editor123'));
    await editor.open;
    expect(await editor.next()).toEqual({ type: 'error', message: '没有权限订阅该主题' });
  });
});
