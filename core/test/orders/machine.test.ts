import { describe, expect, it } from 'vitest';
import {
  actionApplies,
  type DispatchRunner,
  decideOrderMove,
  distanceMetres,
  FULFILMENTS,
  getResource,
  movesFor,
  ORDER_MOVES,
  ORDER_STATUSES,
  type OrderActor,
  rankRunners,
} from '../../src/index';

const ACTORS: OrderActor[] = ['customer', 'merchant', 'runner', 'system'];

describe('the order machine', () => {
  it('walks a delivery order from payment to completion, each move stamping its time', () => {
    const walk = ['pay', 'accept', 'prepare', 'ready', 'dispatch', 'deliver', 'complete'];
    let status = 'pending_payment';
    const seen = [status];
    for (const name of walk) {
      const d = decideOrderMove({ status, fulfilment: 'delivery' }, name, 'merchant');
      if (!d.ok) throw new Error(d.message);
      status = d.to;
      seen.push(status);
    }
    expect(seen).toEqual([
      'pending_payment',
      'paid',
      'accepted',
      'preparing',
      'ready',
      'delivering',
      'delivered',
      'completed',
    ]);
  });

  it('completes pickup and dine-in orders from ready, and never dispatches them', () => {
    for (const fulfilment of ['pickup', 'dineIn']) {
      expect(decideOrderMove({ status: 'ready', fulfilment }, 'pickedUp', 'merchant')).toMatchObject({
        ok: true,
        to: 'completed',
      });
      const d = decideOrderMove({ status: 'ready', fulfilment }, 'dispatch', 'merchant');
      expect(d).toMatchObject({ ok: false, code: 'fulfilment' });
      expect(d.ok || d.message).toMatch(/^(到店自取|堂食)订单不能开始配送$/);
    }
    expect(
      decideOrderMove({ status: 'ready', fulfilment: 'delivery' }, 'pickedUp', 'merchant'),
    ).toMatchObject({
      ok: false,
      message: '外卖配送订单不能已取餐',
    });
  });

  it('names the effects of paying, accepting and cancelling', () => {
    const pay = decideOrderMove({ status: 'pending_payment', fulfilment: 'pickup' }, 'pay', 'customer');
    expect(pay.ok && pay.effects).toEqual(['chargePayment', 'reserveStock']);
    const accept = decideOrderMove({ status: 'paid', fulfilment: 'delivery' }, 'accept', 'merchant');
    expect(accept.ok && accept.effects).toEqual(['requestRunner', 'printReceipt']);
    const cancel = decideOrderMove({ status: 'preparing', fulfilment: 'delivery' }, 'cancel', 'merchant', {
      reason: ' 食材不足 ',
    });
    expect(cancel).toMatchObject({
      ok: true,
      to: 'cancelled',
      reason: '食材不足',
      effects: ['refundToSource', 'returnCoupon', 'returnPoints', 'releaseStock', 'cancelDelivery'],
    });
  });

  it('refuses a merchant cancel or reject without a reason', () => {
    for (const name of ['cancel', 'reject']) {
      const d = decideOrderMove({ status: 'paid', fulfilment: 'pickup' }, name, 'merchant', { reason: '  ' });
      expect(d).toMatchObject({ ok: false, code: 'reason' });
    }
  });

  it('lets only the system expire unpaid orders and auto-complete deliveries', () => {
    expect(
      decideOrderMove({ status: 'pending_payment', fulfilment: 'delivery' }, 'expire', 'system').ok,
    ).toBe(true);
    expect(
      decideOrderMove({ status: 'pending_payment', fulfilment: 'delivery' }, 'expire', 'merchant'),
    ).toEqual({
      ok: false,
      code: 'actor',
      message: '商家不能超时取消',
    });
    expect(
      decideOrderMove({ status: 'delivering', fulfilment: 'delivery' }, 'autoComplete', 'system').ok,
    ).toBe(true);
    expect(decideOrderMove({ status: 'paid', fulfilment: 'delivery' }, 'accept', 'runner')).toMatchObject({
      ok: false,
      message: '骑手不能接单',
    });
  });

  it('lets the customer cancel only until the order is accepted', () => {
    expect(decideOrderMove({ status: 'paid', fulfilment: 'pickup' }, 'customerCancel', 'customer').ok).toBe(
      true,
    );
    expect(
      decideOrderMove({ status: 'accepted', fulfilment: 'pickup' }, 'customerCancel', 'customer'),
    ).toEqual({
      ok: false,
      code: 'state',
      message: '订单已接单，不能顾客取消',
    });
  });

  it('refuses an unknown move', () => {
    expect(decideOrderMove({ status: 'paid', fulfilment: 'pickup' }, 'teleport', 'merchant')).toMatchObject({
      ok: false,
      code: 'unknown_move',
    });
  });

  // Every (status, fulfilment, move, actor): allowed exactly when the table says so, and refused
  // with a Chinese message otherwise — the walk the issue asks for, without a server.
  it('decides every move from every status for every fulfilment and actor as the table says', () => {
    let allowed = 0;
    let refused = 0;
    for (const status of ORDER_STATUSES)
      for (const fulfilment of FULFILMENTS)
        for (const move of ORDER_MOVES)
          for (const actor of ACTORS) {
            const d = decideOrderMove({ status, fulfilment }, move.name, actor, { reason: '原因' });
            const expected =
              move.by.includes(actor) &&
              move.from.includes(status) &&
              (!move.fulfilment || move.fulfilment.includes(fulfilment));
            expect(d.ok, `${move.name} by ${actor} from ${status} (${fulfilment})`).toBe(expected);
            if (d.ok) {
              allowed++;
              expect(d.to).toBe(move.to);
            } else {
              refused++;
              expect(d.message).toMatch(/[\u4e00-\u9fa5]/);
            }
          }
    expect(allowed).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(allowed);
  });

  it('never leaves completed or cancelled', () => {
    for (const status of ['completed', 'cancelled'])
      for (const fulfilment of FULFILMENTS)
        for (const actor of ACTORS) expect(movesFor({ status, fulfilment }, actor)).toEqual([]);
  });

  it("offers the admin exactly the merchant's moves (the orders definition is derived from the table)", () => {
    const orders = getResource('orders');
    for (const status of ORDER_STATUSES)
      for (const fulfilment of FULFILMENTS) {
        const row = { id: 1, createdAt: '', updatedAt: '', status, fulfilment };
        const offered = (orders.actions ?? [])
          .filter((a) => a.name !== 'refund' && a.name !== 'print' && actionApplies(a, row))
          .map((a) => a.name);
        expect(offered, `${status} ${fulfilment}`).toEqual(
          movesFor({ status, fulfilment }, 'merchant').map((m) => m.name),
        );
      }
  });
});

describe('dispatch suggestion', () => {
  const store = { storeId: 1, lng: 116.397, lat: 39.908 };
  const runner = (id: number, over: Partial<DispatchRunner> = {}): DispatchRunner => ({
    id,
    name: `骑手${id}`,
    status: 'idle',
    lng: 116.397,
    lat: 39.908 + id / 1000,
    storeIds: [],
    openDeliveries: 0,
    ...over,
  });

  it('puts idle before busy, then nearest, then fewest open deliveries; leaves out offline and other stores', () => {
    const ranked = rankRunners(store, [
      runner(1, { status: 'delivering', openDeliveries: 1 }),
      runner(2, { status: 'offline' }),
      runner(3),
      runner(4, { storeIds: [2] }),
      runner(5, { lng: null, lat: null }),
      runner(6, { lat: 39.908 + 3 / 1000, openDeliveries: 0 }),
      runner(7, { lat: 39.908 + 3 / 1000, openDeliveries: 0, status: 'idle' }),
      // Idle, but in Shanghai.
      runner(8, { lng: 121.475, lat: 31.232 }),
    ]);
    expect(ranked.map((r) => r.id)).toEqual([3, 6, 7, 5, 1]);
    expect(ranked[0]?.distanceM).toBe(334);
    expect(ranked.find((r) => r.id === 5)?.distanceM).toBeNull();
  });

  it('measures distance on the sphere', () => {
    // 天安门 → 上海人民广场 is about 1 067 km.
    const d = distanceMetres({ lng: 116.397, lat: 39.908 }, { lng: 121.475, lat: 31.232 });
    expect(Math.round(d / 1000)).toBeGreaterThan(1060);
    expect(Math.round(d / 1000)).toBeLessThan(1075);
  });
});
