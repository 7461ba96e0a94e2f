/**
 * The demo's generation through an in-memory store: deterministic, idempotent, the marker
 * resource written last and a failed run taking back what it wrote. How the rows look once the
 * engine stores them is server/test/demo/demo-content.test.ts's part.
 */
import { getResource, lifecycleOf, stampsOf, stepsFrom } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { type Row, seedDemoContent } from '../src/index.js';
import { memoryStore } from './memory-store.js';

const NOW = Date.UTC(2025, 5, 1, 4);

describe('demo content generation', () => {
  it('makes the same rows from the same clock and seed, the marker resource last', async () => {
    const a = memoryStore();
    const b = memoryStore();
    const ra = await seedDemoContent(a, { now: NOW, orders: 400, customers: 80 });
    const rb = await seedDemoContent(b, { now: NOW, orders: 400, customers: 80 });
    expect(ra.seeded).toBe(true);
    expect(ra.counts).toEqual(rb.counts);
    expect(a.writes.at(-1)).toBe('stores');
    for (const resource of ['orders', 'orderHistory', 'deliveries', 'balanceLedger', 'photos'])
      expect(a.tables.get(resource), resource).toEqual(b.tables.get(resource));
    expect(a.files.size).toBeGreaterThan(100);
    expect([...a.files.keys()].sort()).toEqual([...b.files.keys()].sort());

    // Every order moved only by steps of core's order machine, and stamped what each step sets.
    const machine = lifecycleOf(getResource('orders'));
    const orders = new Map((a.tables.get('orders') ?? []).map((o) => [o.id, o]));
    const history = new Map<number, Row[]>();
    for (const h of a.tables.get('orderHistory') ?? [])
      history.set(h.orderId as number, [...(history.get(h.orderId as number) ?? []), h]);
    const ends = new Set<string>();
    for (const [id, order] of orders) {
      const moves = history.get(id) ?? [];
      expect(moves[0]?.fromStatus, `order ${id}`).toBeNull();
      expect(moves[0]?.toStatus).toBe(machine.initial[0]);
      for (const move of moves.slice(1)) {
        const step = stepsFrom(machine, move.fromStatus as string, order).find((s) => s.to === move.toStatus);
        expect(step, `order ${id}: ${move.fromStatus} → ${move.toStatus}`).toBeDefined();
        for (const field of stampsOf(step as NonNullable<typeof step>))
          expect(order[field], `order ${id}.${field}`).toBe(move.createdAt);
      }
      expect(moves.at(-1)?.toStatus).toBe(order.status);
      ends.add(order.status as string);
    }
    // Live orders in every status, and both ends.
    expect([...ends].sort()).toEqual([...machine.states].sort());
  }, 120_000);

  it('does nothing when the marker resource holds rows', async () => {
    const store = memoryStore({ marker: true });
    const report = await seedDemoContent(store, { now: NOW });
    expect(report.seeded).toBe(false);
    expect(store.writes).toEqual([]);
  });

  it('removes what it wrote when a resource fails, newest first, and fails', async () => {
    const store = memoryStore({ failOn: 'orders' });
    await expect(seedDemoContent(store, { now: NOW, orders: 200, customers: 60 })).rejects.toThrow(
      'cannot write orders',
    );
    expect(store.writes.length).toBeGreaterThan(0);
    expect(store.writes).not.toContain('stores');
    expect(store.deletes.map((d) => d.resource)).toEqual([...store.writes].reverse());
    for (const resource of store.writes) expect(store.tables.get(resource), resource).toEqual([]);
  }, 120_000);
});
