import { describe, expect, it } from 'vitest';
import {
  getResource,
  lifecycleOf,
  pathTo,
  RESOURCES,
  type ResourceDef,
  registryProblems,
  stampsOf,
  stepsFrom,
} from '../../src/index';

const orders = lifecycleOf(getResource('orders'));
/** Every order's way until its food is ready. */
const KITCHEN = ['pending_payment', 'paid', 'accepted', 'preparing', 'ready'];
const walk = (fulfilment: string, to: string) => pathTo(orders, { fulfilment }, to)?.states ?? null;

describe('lifecycleOf: the order machine of DOMAIN.md, from the orders definition', () => {
  it('starts unpaid and ends completed or cancelled', () => {
    expect(orders.initial).toEqual(['pending_payment']);
    expect(orders.final).toEqual(['completed', 'cancelled']);
  });

  it('walks a delivery order through delivering and delivered', () => {
    expect(walk('delivery', 'completed')).toEqual([...KITCHEN, 'delivering', 'delivered', 'completed']);
  });

  it('completes pickup and dine-in orders from ready, never delivering them', () => {
    for (const fulfilment of ['pickup', 'dineIn']) {
      expect(walk(fulfilment, 'completed')).toEqual([...KITCHEN, 'completed']);
      expect(walk(fulfilment, 'delivering')).toBeNull();
      expect(walk(fulfilment, 'delivered')).toBeNull();
    }
  });

  it('cancels from every status before delivered, and from no other', () => {
    const into = orders.steps.filter((s) => s.to === 'cancelled');
    expect(into.map((s) => s.name)).toEqual(['reject', 'cancel', 'customerCancel', 'expire']);
    expect([...new Set(into.flatMap((s) => s.from))].sort()).toEqual(
      ['pending_payment', 'paid', 'accepted', 'preparing', 'ready', 'delivering'].sort(),
    );
    expect(stepsFrom(orders, 'delivered', { fulfilment: 'delivery' }).map((s) => s.name)).toEqual([
      'complete',
      'autoComplete',
    ]);
    expect(stepsFrom(orders, 'completed', { fulfilment: 'delivery' })).toEqual([]);
  });

  it('leaves each status by one forward step per fulfilment (and cancel)', () => {
    const forward = (fulfilment: string, state: string) =>
      stepsFrom(orders, state, { fulfilment })
        .filter((s) => s.to !== 'cancelled' && s.action)
        .map((s) => s.name);
    expect(forward('delivery', 'pending_payment')).toEqual(['pay']);
    expect(forward('delivery', 'ready')).toEqual(['dispatch']);
    expect(forward('pickup', 'ready')).toEqual(['pickedUp']);
    expect(forward('dineIn', 'ready')).toEqual(['pickedUp']);
  });

  it('stamps the time of every status it enters', () => {
    const stamps = Object.fromEntries(orders.steps.map((s) => [s.name, stampsOf(s)]));
    expect(stamps).toEqual({
      pay: ['paidAt'],
      accept: ['acceptedAt'],
      reject: ['cancelledAt'],
      prepare: ['preparingAt'],
      ready: ['readyAt'],
      dispatch: ['deliveringAt'],
      deliver: ['deliveredAt'],
      complete: ['completedAt'],
      pickedUp: ['completedAt'],
      autoComplete: ['completedAt'],
      cancel: ['cancelledAt'],
      customerCancel: ['cancelledAt'],
      expire: ['cancelledAt'],
    });
  });

  it('tells admin actions from the steps only the customer or the timers take', () => {
    expect(orders.steps.filter((s) => !s.action).map((s) => s.name)).toEqual([
      'autoComplete',
      'customerCancel',
      'expire',
    ]);
    expect((getResource('orders').actions ?? []).map((a) => a.name)).not.toContain('expire');
  });

  it('answers null for a state no row reaches, and refuses a field that is not an enum', () => {
    expect(pathTo(orders, { fulfilment: 'delivery' }, 'nowhere')).toBeNull();
    expect(() => lifecycleOf(getResource('orders'), 'orderNo')).toThrow(/not an enum/);
  });
});

describe('lifecycleOf over the registry', () => {
  it('has the registry refuse a life-cycle step to an undeclared state', () => {
    const def = getResource('orders');
    const broken = {
      ...def,
      transitions: [
        ...(def.transitions ?? []),
        { name: 'refundAll', label: '退款', field: 'status', from: ['completed'], to: 'refunded' },
      ],
    };
    expect(registryProblems(RESOURCES.map((r) => (r === def ? broken : r)))).toEqual([
      'orders.refundAll: unknown state refunded',
    ]);
  });

  const withSteps = RESOURCES.filter((def: ResourceDef) =>
    [...(def.actions ?? []), ...(def.transitions ?? [])].some((a) =>
      'effect' in a ? a.effect.kind === 'transition' : true,
    ),
  );

  it('gives every transition of every resource as a step between declared states', () => {
    expect(withSteps.length).toBeGreaterThan(5);
    for (const def of withSteps) {
      const fields = new Set([
        ...(def.actions ?? []).flatMap((a) => (a.effect.kind === 'transition' ? [a.effect.field] : [])),
        ...(def.transitions ?? []).map((t) => t.field),
      ]);
      for (const field of fields) {
        const graph = lifecycleOf(def, field);
        for (const step of graph.steps)
          for (const s of [...step.from, step.to])
            expect(graph.states, `${def.name}.${step.name}`).toContain(s);
      }
    }
  });
});
