/**
 * The lease row's rules, statement by statement, on a real database (scheduler/lease.ts): taken
 * when free, refused while held, taken over once expired, renewed and ended only by the run that
 * holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endRun, readLease, renewLease, takeLease } from '../../src/scheduler/index.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';

describe.each(DB_KINDS)('scheduler lease on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const T = 1_000_000;
  let n = 0;
  const fresh = () => `test.lease:${++n}`;

  it('is taken when nobody has it: run 1, the row names the holder and the expiry', async () => {
    const name = fresh();
    expect(await takeLease(t.app.db, { name, holder: 'A', now: T, until: T + 500 })).toBe(1);
    expect(await readLease(t.app.db, name)).toEqual({
      name,
      holder: 'A',
      expiresAt: T + 500,
      acquiredAt: T,
      runs: 1,
      lastRunAt: null,
      lastError: null,
    });
  });

  it('is refused to everyone, its holder too, until it expires; then taken over with the next run number', async () => {
    const name = fresh();
    expect(await takeLease(t.app.db, { name, holder: 'A', now: T, until: T + 500 })).toBe(1);
    expect(await takeLease(t.app.db, { name, holder: 'B', now: T + 499, until: T + 999 })).toBeNull();
    // Not "or held by me": the holder taking it again would run twice in one period.
    expect(await takeLease(t.app.db, { name, holder: 'A', now: T + 499, until: T + 999 })).toBeNull();
    expect((await readLease(t.app.db, name))?.holder).toBe('A');

    expect(await takeLease(t.app.db, { name, holder: 'B', now: T + 500, until: T + 1000 })).toBe(2);
    expect(await readLease(t.app.db, name)).toMatchObject({
      holder: 'B',
      expiresAt: T + 1000,
      acquiredAt: T + 500,
      runs: 2,
    });
  });

  it('of two takers at the same moment, exactly one gets it', async () => {
    const name = fresh();
    const got = await Promise.all(
      ['A', 'B', 'C', 'D'].map((holder) => takeLease(t.app.db, { name, holder, now: T, until: T + 500 })),
    );
    expect(got.filter((r) => r !== null)).toEqual([1]);
    const expired = await Promise.all(
      ['A', 'B', 'C', 'D'].map((holder) =>
        takeLease(t.app.db, { name, holder, now: T + 500, until: T + 900 }),
      ),
    );
    expect(expired.filter((r) => r !== null)).toEqual([2]);
  });

  it('is renewed by the run that holds it, and by no one else', async () => {
    const name = fresh();
    const run = (await takeLease(t.app.db, { name, holder: 'A', now: T, until: T + 300 })) as number;
    expect(await renewLease(t.app.db, { name, holder: 'A', run, until: T + 600 })).toBe(true);
    expect((await readLease(t.app.db, name))?.expiresAt).toBe(T + 600);
    // Renewed, it is still held at T + 300.
    expect(await takeLease(t.app.db, { name, holder: 'B', now: T + 300, until: T + 900 })).toBeNull();
    expect(await renewLease(t.app.db, { name, holder: 'B', run, until: T + 5000 })).toBe(false);
    expect(await renewLease(t.app.db, { name, holder: 'A', run: run + 1, until: T + 5000 })).toBe(false);
    expect((await readLease(t.app.db, name))?.expiresAt).toBe(T + 600);
  });

  it('a holder that stalled and was replaced can neither renew nor end the new run', async () => {
    const name = fresh();
    const first = (await takeLease(t.app.db, { name, holder: 'A', now: T, until: T + 300 })) as number;
    const second = (await takeLease(t.app.db, { name, holder: 'B', now: T + 300, until: T + 600 })) as number;
    expect(second).toBe(first + 1);
    expect(await renewLease(t.app.db, { name, holder: 'A', run: first, until: T + 900 })).toBe(false);
    expect(
      await endRun(t.app.db, { name, holder: 'A', run: first, now: T + 310, nextAt: T + 310, error: null }),
    ).toBe(false);
    expect(await readLease(t.app.db, name)).toMatchObject({
      holder: 'B',
      expiresAt: T + 600,
      runs: second,
      lastRunAt: null,
    });
  });

  it('ending a run records it and holds the lease until the next period', async () => {
    const name = fresh();
    const run = (await takeLease(t.app.db, { name, holder: 'A', now: T, until: T + 300 })) as number;
    expect(
      await endRun(t.app.db, { name, holder: 'A', run, now: T + 40, nextAt: T + 1000, error: 'Error: boom' }),
    ).toBe(true);
    expect(await readLease(t.app.db, name)).toMatchObject({
      holder: 'A',
      expiresAt: T + 1000,
      lastRunAt: T + 40,
      lastError: 'Error: boom',
    });
    expect(await takeLease(t.app.db, { name, holder: 'B', now: T + 999, until: T + 1300 })).toBeNull();
    expect(await takeLease(t.app.db, { name, holder: 'B', now: T + 1000, until: T + 1300 })).toBe(run + 1);
    // The last run's outcome stays until this one ends.
    expect(await readLease(t.app.db, name)).toMatchObject({
      holder: 'B',
      lastRunAt: T + 40,
      lastError: 'Error: boom',
    });
  });
});
