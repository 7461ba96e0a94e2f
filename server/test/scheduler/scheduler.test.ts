/**
 * The scheduler on a real database with a hand-moved clock: two Scheduler instances with their
 * own holder ids stand for two server processes (the real two-process test is
 * two-processes.test.ts). Time moves only when the test says (`clock.advance`), and the
 * schedulers act only when ticked or when their fake timers fire — no sleeping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunAborted,
  readLease,
  type ScheduledTask,
  Scheduler,
  type TaskContext,
  type Timers,
} from '../../src/scheduler/index.js';
import { DB_KINDS, startTestApp, type TestApp, TestClock } from '../helpers/app.js';

/** Timers that fire only when the test says, moving the clock to them. */
class ManualTimers implements Timers {
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  private ids = 0;
  constructor(private readonly clock: TestClock) {}
  set(fn: () => void, ms: number): number {
    const id = ++this.ids;
    this.pending.set(id, { at: this.clock.now() + ms, fn });
    return id;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** When the earliest timer fires (undefined: none is set). */
  next(): number | undefined {
    const ats = [...this.pending.values()].map((p) => p.at);
    return ats.length > 0 ? Math.min(...ats) : undefined;
  }
  fireNext(): void {
    const entry = [...this.pending.entries()].sort((a, b) => a[1].at - b[1].at)[0];
    if (!entry) throw new Error('no timer is set');
    this.pending.delete(entry[0]);
    this.clock.current = Math.max(this.clock.current, entry[1].at);
    entry[1].fn();
  }
}

/** A promise the test resolves by hand: a task body that runs as long as the test wants. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

interface RunRecord {
  holder: string;
  run: number;
  at: number;
}

describe.each(DB_KINDS)('scheduler on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock();
  const schedulers: Scheduler[] = [];
  beforeAll(async () => {
    t = await startTestApp(kind, { clock });
  });
  afterAll(async () => {
    for (const s of schedulers) await s.stop();
    await t?.close();
  });

  let n = 0;
  function scheduler(
    holder: string,
    options: { timers?: Timers; maxConcurrent?: number; random?: () => number } = {},
  ) {
    const s = new Scheduler({ db: t.app.db, now: clock.now, log: t.app.log, holder, ...options });
    schedulers.push(s);
    return s;
  }

  /** A task that records its runs; `name` is fresh per test. */
  function recording(
    runs: RunRecord[],
    options: Partial<ScheduledTask> & { body?: (ctx: TaskContext) => Promise<void> | void } = {},
  ): ScheduledTask {
    const { body, ...rest } = options;
    return {
      name: `test.task:${++n}`,
      everyMs: 1000,
      leaseMs: 300,
      ...rest,
      async run(ctx) {
        runs.push({ holder: ctx.holder, run: ctx.run, at: ctx.now() });
        await body?.(ctx);
      },
    };
  }

  async function tickAll(...all: Scheduler[]) {
    for (const s of all) await s.tick();
    for (const s of all) await s.idle();
  }

  it('runs a task once per period across two processes, each able to take it', async () => {
    const runs: RunRecord[] = [];
    const task = recording(runs);
    const a = scheduler('A');
    const b = scheduler('B');
    a.register(task);
    b.register({ ...task });
    const start = clock.now();
    // 40 steps of 125 ms = 5 s: five periods after the first run. Both try at every step; at
    // every other period boundary B tries first, so each takes its turn.
    for (let step = 0; step <= 40; step++) {
      await tickAll(...(step % 16 < 8 ? [a, b] : [b, a]));
      clock.advance(125);
    }
    expect(runs.map((r) => r.at - start)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    expect(runs.map((r) => r.run)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(runs.map((r) => r.holder)).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
    expect(await readLease(t.app.db, task.name)).toMatchObject({ runs: 6, lastError: null });
  });

  it('a process that finished a run does not run it again in the same period (the lease spans it)', async () => {
    const runs: RunRecord[] = [];
    const task = recording(runs, { everyMs: 60_000, leaseMs: 300 });
    const a = scheduler('A');
    const b = scheduler('B');
    a.register(task);
    b.register({ ...task });
    await tickAll(a);
    expect(runs).toHaveLength(1);
    // Far past the 300 ms lease of a run, inside the 60 s period.
    clock.advance(30_000);
    await tickAll(b, a);
    expect(runs).toHaveLength(1);
    clock.advance(30_000);
    await tickAll(b, a);
    expect(runs.map((r) => r.holder)).toEqual(['A', 'B']);
  });

  it('a task that throws is logged, the scheduler goes on, and it is tried again after retryMs', async () => {
    const runs: RunRecord[] = [];
    let failures = 2;
    const task = recording(runs, {
      everyMs: 10_000,
      retryMs: 1000,
      body: () => {
        if (failures-- > 0) throw new Error('the database said no');
      },
    });
    const a = scheduler('A');
    a.register(task);
    const logsBefore = t.logs.length;
    await tickAll(a);
    expect(runs).toHaveLength(1);
    const logged = t.logs.slice(logsBefore).map((line) => JSON.parse(line));
    expect(logged).toContainEqual(
      expect.objectContaining({
        task: task.name,
        msg: 'scheduled task failed; it is tried again at its next attempt',
        err: expect.objectContaining({ message: 'the database said no' }),
      }),
    );
    expect(await readLease(t.app.db, task.name)).toMatchObject({
      lastError: 'Error: the database said no',
      expiresAt: clock.now() + 1000,
    });

    clock.advance(999);
    await tickAll(a);
    expect(runs).toHaveLength(1);
    clock.advance(1);
    await tickAll(a);
    expect(runs).toHaveLength(2);
    clock.advance(1000);
    await tickAll(a);
    expect(runs).toHaveLength(3);
    const third = runs[2]?.at as number;
    expect(await readLease(t.app.db, task.name)).toMatchObject({
      lastError: null,
      expiresAt: third + 10_000,
    });
    // Succeeded: the next run is a whole period later.
    clock.advance(9_999);
    await tickAll(a);
    expect(runs).toHaveLength(3);
  });

  it('a task overrunning its period and lease is not started twice; its heartbeat keeps the other process out', async () => {
    const runs: RunRecord[] = [];
    const body = gate();
    const task = recording(runs, { everyMs: 1000, leaseMs: 300, body: () => body.promise });
    const a = scheduler('A');
    const b = scheduler('B');
    a.register(task);
    b.register({
      ...task,
      run: async (ctx) => void runs.push({ holder: ctx.holder, run: ctx.run, at: ctx.now() }),
    });
    await a.tick();
    const started = clock.now();
    // 5 s in steps of 100 ms: A renews every 100 ms (a third of the lease); B keeps trying.
    for (let step = 0; step < 50; step++) {
      clock.advance(100);
      await a.tick();
      await b.tick();
    }
    expect(runs).toHaveLength(1);
    expect(await readLease(t.app.db, task.name)).toMatchObject({ holder: 'A', runs: 1 });
    expect((await readLease(t.app.db, task.name))?.expiresAt).toBeGreaterThan(clock.now());

    body.open();
    await a.idle();
    // It overran its period: the next run may start at once (here A, which knows; B waits for
    // the heartbeat's expiry it last read, then would find the lease taken).
    expect(await readLease(t.app.db, task.name)).toMatchObject({
      expiresAt: clock.now(),
      lastRunAt: clock.now(),
    });
    expect(clock.now() - started).toBe(5000);
    await tickAll(b, a);
    expect(runs.map((r) => [r.holder, r.run, r.at - started])).toEqual([
      ['A', 1, 0],
      ['A', 2, 5000],
    ]);
  });

  it('a process that stalls past its lease loses it: the other takes over, the stalled run is told to stop, and its end changes nothing', async () => {
    const runs: RunRecord[] = [];
    const body = gate();
    let signal: AbortSignal | undefined;
    const task = recording(runs, {
      everyMs: 1000,
      leaseMs: 300,
      body: async (ctx) => {
        signal = ctx.signal;
        await body.promise;
      },
    });
    const a = scheduler('A');
    const b = scheduler('B');
    a.register(task);
    b.register({
      ...task,
      run: async (ctx) => void runs.push({ holder: ctx.holder, run: ctx.run, at: ctx.now() }),
    });
    await a.tick();
    // A does not tick (a blocked event loop): its lease runs out unrenewed.
    clock.advance(300);
    await tickAll(b);
    expect(runs.map((r) => r.holder)).toEqual(['A', 'B']);
    const afterB = await readLease(t.app.db, task.name);
    expect(afterB).toMatchObject({ holder: 'B', runs: 2 });

    await a.tick(); // its heartbeat finds the lease gone
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as RunAborted | undefined)?.reason).toBe('lease-lost');
    body.open();
    await a.idle();
    expect(await readLease(t.app.db, task.name)).toEqual(afterB);
  });

  it('stop() waits for a running task; a run it interrupted hands the lease on at once, a run that completed keeps its period', async () => {
    const interrupted: RunRecord[] = [];
    const completed: RunRecord[] = [];
    let ended = false;
    const stopsOnSignal = recording(interrupted, {
      everyMs: 60_000,
      body: (ctx) =>
        new Promise<void>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const finishes = recording(completed, {
      everyMs: 60_000,
      body: async (ctx) => {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        ended = true;
      },
    });
    const a = scheduler('A');
    a.register(stopsOnSignal);
    a.register(finishes);
    await a.tick();
    clock.advance(50);
    await a.stop();
    expect(ended).toBe(true);
    expect(await readLease(t.app.db, stopsOnSignal.name)).toMatchObject({
      expiresAt: clock.now(),
      lastError: 'RunAborted: the scheduler is stopping',
    });
    expect(await readLease(t.app.db, finishes.name)).toMatchObject({
      expiresAt: clock.now() - 50 + 60_000,
      lastError: null,
    });
    // Another process redoes the interrupted one now, and leaves the other to its period.
    const b = scheduler('B');
    b.register({
      ...stopsOnSignal,
      run: (ctx) => void interrupted.push({ holder: ctx.holder, run: ctx.run, at: ctx.now() }),
    });
    b.register({
      ...finishes,
      run: (ctx) => void completed.push({ holder: ctx.holder, run: ctx.run, at: ctx.now() }),
    });
    await tickAll(b);
    expect(interrupted.map((r) => r.holder)).toEqual(['A', 'B']);
    expect(completed.map((r) => r.holder)).toEqual(['A']);
    // A stopped scheduler starts nothing more.
    clock.advance(60_000);
    await tickAll(a);
    expect(completed.map((r) => r.holder)).toEqual(['A']);
  });

  it('runs at most maxConcurrent tasks at once; a due task waits for a free slot', async () => {
    const runs: RunRecord[] = [];
    const first = gate();
    const a = scheduler('A', { maxConcurrent: 1 });
    const one = recording(runs, { body: () => first.promise });
    const two = recording(runs);
    a.register(one);
    a.register(two);
    await a.tick();
    clock.advance(100);
    await a.tick();
    expect(runs.map((r) => r.run)).toEqual([1]);
    first.open();
    await a.idle();
    await tickAll(a);
    expect(runs).toHaveLength(2);
  });

  it('wakes itself with its timers at the next due moment and the heartbeats, and stops waking once stopped', async () => {
    const runs: RunRecord[] = [];
    const timers = new ManualTimers(clock);
    const body = gate();
    let calls = 0;
    const a = scheduler('A', { timers, random: () => 0.5 });
    const task = recording(runs, {
      everyMs: 1000,
      leaseMs: 300,
      jitterMs: 200,
      body: () => (++calls === 1 ? body.promise : undefined),
    });
    a.register(task);
    expect(timers.next()).toBeUndefined(); // not started: the test would tick by hand
    a.start();
    const registeredAt = clock.now();
    // The first attempt waits half the jitter.
    expect(timers.next()).toBe(registeredAt + 100);
    timers.fireNext();
    await a.tick();
    expect(runs.map((r) => r.at)).toEqual([registeredAt + 100]);
    // While it runs: a heartbeat every 100 ms (a third of the lease).
    expect(timers.next()).toBe(registeredAt + 200);
    timers.fireNext();
    await a.tick();
    expect((await readLease(t.app.db, task.name))?.expiresAt).toBe(registeredAt + 200 + 300);
    body.open();
    await a.idle();
    // Done: the next wake-up is the next period.
    expect(timers.next()).toBe(registeredAt + 100 + 1000);
    timers.fireNext();
    await a.tick();
    await a.idle();
    expect(runs.map((r) => r.at - registeredAt)).toEqual([100, 1100]);
    await a.stop();
    expect(a.started).toBe(false);
    expect(timers.next()).toBeUndefined();
  });

  it('refuses a task registered twice or with nonsense numbers', () => {
    const a = scheduler('A');
    const task = recording([]);
    a.register(task);
    expect(() => a.register(task)).toThrow(/registered twice/);
    expect(() => a.register({ ...task, name: 'x', everyMs: 0 })).toThrow(/everyMs/);
    expect(() => a.register({ ...task, name: 'y', leaseMs: 1.5 })).toThrow(/leaseMs/);
    expect(() => a.register({ ...task, name: '' })).toThrow(/name/);
  });

  it('an unregistered task stops being run, and its run in progress is told so', async () => {
    const runs: RunRecord[] = [];
    let signal: AbortSignal | undefined;
    const a = scheduler('A');
    const remove = a.register(
      recording(runs, {
        body: (ctx) =>
          new Promise<void>((resolve) => {
            signal = ctx.signal;
            ctx.signal.addEventListener('abort', () => resolve());
          }),
      }),
    );
    await a.tick();
    remove();
    await a.idle();
    expect((signal?.reason as RunAborted | undefined)?.reason).toBe('unregistered');
    clock.advance(5000);
    await tickAll(a);
    expect(runs).toHaveLength(1);
    expect(a.names()).not.toContain(`test.task:${n}`);
  });
});

describe.each(DB_KINDS)('the server and its scheduler on %s', (kind) => {
  it("holds every area's tasks, runs a body by hand, and stays still with SCHEDULER=off", async () => {
    const runs: number[] = [];
    const t = await startTestApp(kind, {
      tasks: [{ name: 'test.byHand', everyMs: 1000, run: (ctx) => void runs.push(ctx.run) }],
    });
    try {
      expect(t.app.scheduler.names()).toEqual(
        expect.arrayContaining(['marketing.expireCoupons', 'test.byHand']),
      );
      await t.app.scheduler.runBody('test.byHand');
      expect(runs).toEqual([0]);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      expect(t.app.scheduler.started).toBe(false);
      expect(await readLease(t.app.db, 'test.byHand')).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('starts when the server listens and stops on close, waiting for the run in progress', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started = gate();
    let finished = false;
    const t = await startTestApp(kind, {
      config: { scheduler: true },
      tasks: [
        {
          name: 'test.onListen',
          everyMs: 60_000,
          async run() {
            started.open();
            await released;
            finished = true;
          },
        },
      ],
    });
    expect(t.app.scheduler.started).toBe(false); // built, not listening
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(t.app.scheduler.started).toBe(true);
    await started.promise; // the real timer fired: the task is due at once
    const closing = t.close();
    release();
    await closing;
    expect(finished).toBe(true);
    expect(t.app.scheduler.started).toBe(false);
  });
});
