/**
 * The demo's generation through an in-memory store: deterministic, idempotent, the marker
 * resource written last and a failed run taking back what it wrote. How the rows look once the
 * engine stores them is server/test/demo/demo-content.test.ts's part.
 */
import { describe, expect, it } from 'vitest';
import { seedDemoContent } from '../src/index.js';
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
