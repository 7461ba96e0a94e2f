/**
 * The order board's live channel: `/ws` topic `orders`, for users who may read orders or
 * dispatch. A new order, each move, a refund and an assignment reach it after their commit, with
 * the order's id, number, store and status; a user without either permission is refused.
 */
import type { AddressInfo } from 'node:net';
import { ORDER_BOARD_TOPIC } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../../src/ws/plugin.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs } from '../resources/helpers.js';
import { type OrderWorld, orderWorld, placeOrder } from './fixture.js';

interface Client {
  next(): Promise<Record<string, unknown>>;
  closed: Promise<number>;
  close(): void;
}

async function subscribe(url: string, token: string): Promise<Client> {
  const socket = new WebSocket(url);
  const inbox: Record<string, unknown>[] = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const wake = waiting.shift();
    if (wake) wake(message);
    else inbox.push(message);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', topic: ORDER_BOARD_TOPIC, token }));
  return {
    next: () => {
      const ready = inbox.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    closed,
    close: () => socket.close(),
  };
}

describe.each(DB_KINDS)('the order board’s push channel on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let operator: Api;
  let w: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    operator = apiAs(t.app, await tokenOf(t.app, 'operator', DEMO_PASSWORD));
    w = await orderWorld(t, { balanceFen: 100_000 });
  });
  afterAll(async () => t?.close());

  it('tells an operator of a new order, each move, a refund and an assignment', async () => {
    const board = await subscribe(url, operator.token);
    expect(await board.next()).toEqual({ type: 'subscribed', topic: ORDER_BOARD_TOPIC });

    const order = await placeOrder(operator, w);
    const summary = { id: order.id, orderNo: order.orderNo, storeId: w.storeId };
    expect(await board.next()).toMatchObject({
      topic: ORDER_BOARD_TOPIC,
      data: { type: 'created', order: { ...summary, status: 'pending_payment' } },
    });
    await operator.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'balance' });
    expect(await board.next()).toMatchObject({
      data: { type: 'status', order: { ...summary, status: 'paid', from: 'pending_payment' } },
    });
    await operator.post(`/api/admin/orders/${order.id}/accept`);
    expect(await board.next()).toMatchObject({ data: { type: 'status', order: { status: 'accepted' } } });

    const board2 = (await operator.get(`/api/admin/dispatch?storeId=${w.storeId}`)).body.data;
    const delivery = board2.waiting.find((d: { order: { id: number } }) => d.order.id === order.id);
    await operator.post(`/api/admin/deliveries/${delivery.deliveryId}/assign`, { runnerId: w.runner });
    expect(await board.next()).toMatchObject({
      data: { type: 'assigned', order: { ...summary, runnerId: w.runner } },
    });

    const refund = await operator.post(`/api/admin/orders/${order.id}/refund`, {
      reason: '少送一杯',
      amountFen: 100,
    });
    expect(refund.status, refund.text).toBe(200);
    expect(await board.next()).toMatchObject({
      data: { type: 'refund', order: { ...summary, status: 'accepted' } },
    });
    board.close();
  });

  it('tells of the system’s accept right after the payment for a store with 自动接单', async () => {
    const auto = await orderWorld(t, { balanceFen: 100_000 });
    const on = await (await adminApi(t)).patch(`/api/admin/stores/${auto.storeId}`, { autoAccept: true });
    expect(on.status, on.text).toBe(200);
    const board = await subscribe(url, operator.token);
    expect(await board.next()).toEqual({ type: 'subscribed', topic: ORDER_BOARD_TOPIC });
    const order = await placeOrder(operator, auto);
    const summary = { id: order.id, orderNo: order.orderNo, storeId: auto.storeId };
    expect(await board.next()).toMatchObject({ data: { type: 'created', order: summary } });
    const paid = await operator.post(`/api/admin/orders/${order.id}/pay`, { payMethod: 'balance' });
    expect(paid.status, paid.text).toBe(200);
    expect(await board.next()).toMatchObject({
      data: { type: 'status', order: { ...summary, status: 'paid', from: 'pending_payment', move: 'pay' } },
    });
    expect(await board.next()).toMatchObject({
      data: { type: 'status', order: { ...summary, status: 'accepted', from: 'paid', move: 'accept' } },
    });
    board.close();
  });

  it('refuses a user who may neither read orders nor dispatch', async () => {
    const editor = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    const client = await subscribe(url, editor);
    expect(await client.next()).toEqual({ type: 'error', message: '没有权限订阅该主题' });
    expect(await client.closed).toBe(WS_CLOSE.forbidden);
  });
});
