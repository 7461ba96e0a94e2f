/**
 * The board's own logic, without a screen: its tabs cover the machine's statuses, its buttons are
 * core's moves, the refresh debounce, and the order feed's connection life (live, retry, close).
 */
import { FULFILMENTS, movesFor, ORDER_STATUSES, planRefund, type WebSocketLike } from '@wanxiang/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BOARD_TABS, statusFilter, tabOf } from './board-tabs';
import { debounce } from './debounce';
import type { OrderRow } from './order-api';
import { OrderFeed } from './order-feed';
import { boardMoves, canRefund, moveLabel, ordersAction, quickMove, refundable } from './order-moves';

describe('the board’s tabs', () => {
  it('put every status of the machine in exactly one tab but 全部', () => {
    for (const status of ORDER_STATUSES) {
      const holding = BOARD_TABS.filter((t) => t.statuses?.includes(status)).map((t) => t.label);
      expect(holding, status).toHaveLength(1);
    }
    expect(tabOf('all').statuses).toBeNull();
    expect(tabOf('nonsense').key).toBe('all');
  });

  it('filter one status with status= and several with status_in=', () => {
    expect(statusFilter(tabOf('new'))).toEqual({ status: 'paid' });
    expect(statusFilter(tabOf('cooking'))).toEqual({ status_in: 'accepted,preparing' });
    expect(statusFilter(tabOf('all'))).toEqual({});
  });

  it('count only the tabs of orders in progress (the final ones grow without end)', () => {
    expect(BOARD_TABS.filter((t) => t.counted).map((t) => t.label)).toEqual([
      '待支付',
      '待接单',
      '制作中',
      '待取餐/配送',
      '配送中',
    ]);
  });
});

describe('the buttons of an order', () => {
  it('are exactly the moves core allows the staff, each an action of the orders definition', () => {
    for (const status of ORDER_STATUSES)
      for (const fulfilment of FULFILMENTS) {
        const order = { status, fulfilment };
        expect(boardMoves(order).map((m) => m.name)).toEqual(movesFor(order, 'merchant').map((m) => m.name));
        for (const move of boardMoves(order)) expect(ordersAction(move.name), move.name).toBeDefined();
        // The quick button of a row never refuses or cancels an order.
        expect(quickMove(order)?.danger).toBeFalsy();
      }
    expect(quickMove({ status: 'paid', fulfilment: 'delivery' })?.name).toBe('accept');
    expect(quickMove({ status: 'ready', fulfilment: 'pickup' })?.name).toBe('pickedUp');
    expect(quickMove({ status: 'completed', fulfilment: 'delivery' })).toBeUndefined();
    expect(moveLabel({ name: 'pay', label: '支付' })).toBe('收款');
  });

  it('offer 退款 exactly when core’s planRefund finds something left', () => {
    const order = {
      status: 'completed',
      paidFen: 5000,
      refundedFen: 0,
      pointsUsed: 0,
      pointsRefunded: 0,
      items: [{ goodsId: 1, name: '牛肉面', sku: null, qty: 2, unitPriceFen: 2500, payableFen: 5000 }],
    } as unknown as OrderRow;
    expect(canRefund(order)).toBe(true);
    expect(canRefund({ ...order, refundedFen: 5000 })).toBe(false);
    expect(canRefund({ ...order, status: 'cancelled' })).toBe(false);
    expect(canRefund({ ...order, status: 'pending_payment', paidFen: 0 })).toBe(false);
    expect(planRefund(refundable(order), { lines: [{ index: 0, qty: 1 }] })).toMatchObject({
      ok: true,
      amountFen: 2500,
    });
  });
});

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once after a burst, and at least every maxWait under a steady stream', () => {
    const fn = vi.fn();
    const d = debounce(fn, 1000, 4000);
    d();
    d();
    vi.advanceTimersByTime(999);
    d();
    vi.advanceTimersByTime(999);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);

    // A call every 500 ms for 10 s: a run every 4 s, not 20 and not none.
    fn.mockClear();
    for (let t = 0; t < 10_000; t += 500) {
      d();
      vi.advanceTimersByTime(500);
    }
    expect(fn).toHaveBeenCalledTimes(2);
    d.cancel();
    vi.advanceTimersByTime(10_000);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});

class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

describe('the order feed', () => {
  function feed() {
    const sockets: FakeSocket[] = [];
    const timers: { fn: () => void; ms: number }[] = [];
    const f = new OrderFeed({
      url: 'ws://shop.test/ws',
      token: () => 'tok-1',
      connect: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
      setTimer: (fn, ms) => {
        const t = { fn, ms };
        timers.push(t);
        return t;
      },
      clearTimer: (t) => timers.splice(timers.indexOf(t as (typeof timers)[number]), 1),
    });
    return { f, sockets, timers };
  }

  it('opens one socket for every listener, subscribes with the token, and is live once accepted', () => {
    const { f, sockets } = feed();
    const a = vi.fn();
    const b = vi.fn();
    const stopA = f.listen(a);
    f.listen(b);
    expect(sockets).toHaveLength(1);
    const socket = sockets[0] as FakeSocket;
    socket.open();
    expect(JSON.parse(socket.sent[0] as string)).toEqual({
      type: 'subscribe',
      topic: 'orders',
      token: 'tok-1',
    });
    const watch = vi.fn();
    f.watch(watch);
    expect(f.live).toBe(false);
    socket.receive({ type: 'subscribed', topic: 'orders' });
    expect(f.live).toBe(true);
    expect(watch).toHaveBeenCalledTimes(1);

    const news = { type: 'created', order: { id: 7, orderNo: 'NO7', storeId: 1, status: 'pending_payment' } };
    socket.receive({ topic: 'orders', data: news });
    socket.receive({ topic: 'orders', data: { nonsense: true } });
    socket.receive({ topic: 'other', data: news });
    expect(a).toHaveBeenCalledWith(news);
    expect(b).toHaveBeenCalledTimes(1);
    stopA();
    socket.receive({ topic: 'orders', data: news });
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(2);
  });

  it('reconnects after a drop with a growing pause, and stops when nobody listens', () => {
    const { f, sockets, timers } = feed();
    const stop = f.listen(() => undefined);
    (sockets[0] as FakeSocket).open();
    (sockets[0] as FakeSocket).receive({ type: 'subscribed', topic: 'orders' });
    (sockets[0] as FakeSocket).drop();
    expect(f.live).toBe(false);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers.shift()?.fn();
    expect(sockets).toHaveLength(2);
    (sockets[1] as FakeSocket).drop();
    expect(timers.map((t) => t.ms)).toEqual([2000]);
    stop();
    expect(timers).toEqual([]);
    expect(sockets).toHaveLength(2);
  });
});
