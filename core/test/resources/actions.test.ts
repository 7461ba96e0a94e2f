import { describe, expect, it } from 'vitest';
import { actionApplies, actionConditions, applicableActions, getResource, type Row } from '../../src/index';

const row = (fields: Record<string, unknown>) => ({ id: 1, createdAt: '', updatedAt: '', ...fields }) as Row;
const names = (resource: string, fields: Record<string, unknown>) =>
  applicableActions(getResource(resource), row(fields)).map((a) => a.name);

describe('which actions apply to a row', () => {
  it('offers a transition only from the states it leaves', () => {
    expect(names('stores', { status: 'paused' })).toEqual(['open', 'close']);
    expect(names('stores', { status: 'open' })).toEqual(['pause', 'close']);
    expect(names('stores', { status: 'closed' })).toEqual(['open']);
  });

  it("honours a transition's `when`: delivery orders are dispatched, pickup orders picked up", () => {
    expect(names('orders', { status: 'ready', fulfilment: 'delivery' })).toEqual([
      'dispatch',
      'cancel',
      'refund',
      'print',
    ]);
    expect(names('orders', { status: 'ready', fulfilment: 'pickup' })).toEqual([
      'pickedUp',
      'cancel',
      'refund',
      'print',
    ]);
    expect(names('orders', { status: 'cancelled', fulfilment: 'delivery' })).toEqual([]);
    // A receipt is printed from payment on (not for an unpaid order).
    expect(names('orders', { status: 'pending_payment', fulfilment: 'delivery' })).toEqual(['pay', 'cancel']);
  });

  it("honours a handler's declared `when`, and offers handlers without one everywhere", () => {
    expect(names('users', { status: 'active' })).toEqual(['resetPassword', 'disable']);
    expect(names('users', { status: 'disabled' })).toEqual(['resetPassword', 'enable']);
    expect(names('merchantApplications', { status: 'auditing' })).toContain('reject');
    expect(names('merchantApplications', { status: 'finished' })).not.toContain('reject');
  });

  it("states a transition's conditions including its from-states", () => {
    const dispatch = getResource('orders').actions?.find((a) => a.name === 'dispatch');
    expect(dispatch && actionConditions(dispatch)).toEqual({ status: ['ready'], fulfilment: ['delivery'] });
    expect(dispatch && actionApplies(dispatch, row({ status: 'ready', fulfilment: 'dineIn' }))).toBe(false);
  });
});
