import { describe, expect, it } from 'vitest';
import {
  AUTO_ACCEPT_ACTOR,
  autoAcceptMove,
  decideOrderMove,
  FULFILMENTS,
  ORDER_STATUSES,
} from '../../src/index';

const open = { autoAccept: true, status: 'open' };

describe('自动接单 (autoAcceptMove)', () => {
  it('accepts a paid order of an open store with 自动接单 on, whatever its fulfilment', () => {
    for (const fulfilment of FULFILMENTS)
      expect(autoAcceptMove({ status: 'paid', fulfilment }, open)).toBe('accept');
  });

  it('leaves the order to the staff when the store has 自动接单 off, or is not open', () => {
    const order = { status: 'paid', fulfilment: 'delivery' };
    expect(autoAcceptMove(order, { autoAccept: false, status: 'open' })).toBeNull();
    expect(autoAcceptMove(order, { autoAccept: null, status: 'open' })).toBeNull();
    expect(autoAcceptMove(order, { status: 'open' })).toBeNull();
    // Only the boolean true turns it on (a wire row's boolean), not something truthy.
    expect(autoAcceptMove(order, { autoAccept: 1, status: 'open' })).toBeNull();
    expect(autoAcceptMove(order, { autoAccept: true, status: 'paused' })).toBeNull();
    expect(autoAcceptMove(order, { autoAccept: true, status: 'closed' })).toBeNull();
    expect(autoAcceptMove(order, null)).toBeNull();
    expect(autoAcceptMove(order, undefined)).toBeNull();
  });

  it('offers the move exactly when the machine lets the system accept the order', () => {
    for (const status of ORDER_STATUSES)
      for (const fulfilment of FULFILMENTS) {
        const order = { status, fulfilment };
        const machine = decideOrderMove(order, 'accept', AUTO_ACCEPT_ACTOR).ok;
        expect(autoAcceptMove(order, open) === 'accept', `${status}/${fulfilment}`).toBe(machine);
        expect(machine).toBe(status === 'paid');
      }
  });

  it('is made by the system, an actor the machine lets accept', () => {
    expect(AUTO_ACCEPT_ACTOR).toBe('system');
    expect(decideOrderMove({ status: 'paid', fulfilment: 'pickup' }, 'accept', 'system')).toMatchObject({
      ok: true,
      to: 'accepted',
      effects: ['requestRunner', 'printReceipt'],
    });
  });
});
