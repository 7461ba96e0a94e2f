/**
 * Runs registered tasks at their period, each run under its database lease (lease.ts), so that
 * with several server processes on one database a period's run happens once in the whole
 * cluster. README.md has the rules; in short, per task:
 *
 * - when its time has come, take the lease (one conditional statement); refused → wait until
 *   the lease's `expires_at`, then try again;
 * - taken → run the body, renewing the lease every third of `leaseMs` while it runs (the
 *   heartbeat; a crashed process stops renewing and another takes over after `leaseMs`);
 * - when the body ends, leave the lease in place until the next period (`start + everyMs`), so no
 *   other process runs it again in this one; after a failure, sooner (`retryMs`).
 *
 * Time comes from an injected clock (`now`) and wake-ups from injected timers: `tick()` does
 * whatever is due at `now()`, so a test moves a TestClock and calls `tick()` — no sleeping.
 */
import type { FastifyBaseLogger } from 'fastify';
import { endRun, type LeaseDb, newHolderId, renewLease, takeLease } from './lease.js';
import { type ScheduledTask, type SettledTask, settleTask, type TaskContext } from './task.js';

/** How the scheduler wakes itself up (tests pass their own, or none and call `tick()`). */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, not keeping the process alive by themselves (the HTTP server does). */
export const NODE_TIMERS: Timers = {
  set(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clear(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/** setTimeout's longest delay; a later wake-up is re-armed when this one fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;
const MAX_ERROR_LENGTH = 2000;

export interface SchedulerOptions {
  db: LeaseDb;
  now: () => number;
  log: FastifyBaseLogger;
  /** Default: host:pid:random (lease.ts). */
  holder?: string;
  /** Default: Node's timers. Without `start()` none is used. */
  timers?: Timers;
  /** Runs at once in this process, all tasks together; a due task waits for a free slot. Default: no limit. */
  maxConcurrent?: number;
  /** For the first attempt's jitter; default Math.random. */
  random?: () => number;
}

/** Why a run's signal was aborted. */
export class RunAborted extends Error {
  override name = 'RunAborted';
  constructor(readonly reason: 'stopping' | 'unregistered' | 'lease-lost') {
    super(
      reason === 'stopping'
        ? 'the scheduler is stopping'
        : reason === 'unregistered'
          ? 'the task was unregistered'
          : 'the lease passed to another process',
    );
  }
}

interface Run {
  task: SettledTask;
  number: number;
  startedAt: number;
  renewAt: number;
  controller: AbortController;
  done: Promise<void>;
}

interface Entry {
  task: SettledTask;
  /** When this process next tries to take the lease. */
  nextAt: number;
  run: Run | null;
}

export class Scheduler {
  readonly holder: string;
  private readonly db: LeaseDb;
  private readonly now: () => number;
  private readonly log: FastifyBaseLogger;
  private readonly timers: Timers;
  private readonly maxConcurrent: number;
  private readonly random: () => number;
  private readonly entries = new Map<string, Entry>();
  /** Runs in progress, including those of tasks unregistered since (they are still renewed). */
  private readonly runs = new Set<Run>();
  private ticking: Promise<void> = Promise.resolve();
  private isStarted = false;
  private stopped = false;
  private timer: unknown;
  private wakeAt = Number.POSITIVE_INFINITY;

  constructor(options: SchedulerOptions) {
    this.db = options.db;
    this.now = options.now;
    this.log = options.log;
    this.holder = options.holder ?? newHolderId();
    this.timers = options.timers ?? NODE_TIMERS;
    this.maxConcurrent = options.maxConcurrent ?? Number.POSITIVE_INFINITY;
    this.random = options.random ?? Math.random;
  }

  /** Adds a task; its first attempt is now (plus jitter). Answers a function that removes it. */
  register(task: ScheduledTask): () => void {
    const settled = settleTask(task);
    if (this.entries.has(settled.name))
      throw new Error(`scheduled task "${settled.name}" is registered twice`);
    const entry: Entry = {
      task: settled,
      nextAt: this.now() + Math.floor(this.random() * settled.jitterMs),
      run: null,
    };
    this.entries.set(settled.name, entry);
    this.arm();
    return () => {
      if (this.entries.get(settled.name) !== entry) return;
      this.entries.delete(settled.name);
      entry.run?.controller.abort(new RunAborted('unregistered'));
      this.arm();
    };
  }

  /** Whether it wakes itself up (`start()` was called, `stop()` not yet). */
  get started(): boolean {
    return this.isStarted;
  }

  /** The registered tasks' names. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Wakes itself up from now on (the server calls this once it listens). */
  start(): void {
    if (this.stopped) throw new Error('a stopped scheduler does not start again');
    this.isStarted = true;
    this.arm();
  }

  /**
   * Renews the leases of running tasks that are due a heartbeat, then tries every task whose time
   * has come (oldest first, within `maxConcurrent`). Resolves once the attempts are made and the
   * runs started — not when they end (`idle()`). Ticks never overlap: a second call waits.
   */
  tick(): Promise<void> {
    const next = this.ticking.then(() => this.tickOnce());
    this.ticking = next.catch(() => undefined);
    return next;
  }

  /** Resolves when no run is in progress. */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs].map((run) => run.done));
  }

  /**
   * Runs task `name`'s body now, in this process, without the lease or the schedule: for tests
   * that drive a task by hand (with `SCHEDULER=off`).
   */
  async runBody(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no scheduled task "${name}"`);
    await entry.task.run(this.context(entry.task, 0, this.now(), new AbortController().signal));
  }

  /**
   * Graceful stop (the server's close): no new runs; running ones are told to stop (their
   * signal) and waited for, their leases renewed meanwhile. A run that ends by failing after
   * that hands its lease on at once, so another process redoes it; one that completes keeps it
   * until the next period as usual.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.ticking;
    for (const run of this.runs) run.controller.abort(new RunAborted('stopping'));
    await this.idle();
    this.isStarted = false;
    this.disarm();
  }

  private async tickOnce(): Promise<void> {
    for (const run of this.runs) if (this.now() >= run.renewAt) await this.renew(run);
    if (!this.stopped) {
      const now = this.now();
      const due = [...this.entries.values()]
        .filter((e) => e.run === null && e.nextAt <= now)
        .sort((a, b) => a.nextAt - b.nextAt);
      for (const entry of due) {
        if (this.stopped || this.runs.size >= this.maxConcurrent) break;
        // Unregistered while an earlier attempt of this tick waited on the database.
        if (this.entries.get(entry.task.name) !== entry) continue;
        await this.attempt(entry);
      }
    }
    this.arm();
  }

  private async attempt(entry: Entry): Promise<void> {
    const { task } = entry;
    const now = this.now();
    let number: number | null;
    try {
      number = await takeLease(this.db, {
        name: task.name,
        holder: this.holder,
        now,
        until: now + task.leaseMs,
      });
    } catch (err) {
      this.log.warn({ err, task: task.name }, 'scheduler: could not take the lease; trying again later');
      entry.nextAt = now + task.retryMs;
      return;
    }
    if (number === null) {
      // Someone else's run, or its period: try again when that lease ends.
      try {
        const row = await this.db
          .selectFrom('scheduler_leases')
          .select('expires_at')
          .where('name', '=', task.name)
          .executeTakeFirst();
        entry.nextAt = Math.max(Number(row?.expires_at ?? now), now);
      } catch (err) {
        this.log.warn({ err, task: task.name }, 'scheduler: could not read the lease; trying again later');
        entry.nextAt = now + task.retryMs;
      }
      return;
    }
    if (this.stopped || this.entries.get(task.name) !== entry) {
      // Stopped or unregistered while the lease was being taken: hand it back unused.
      await renewLease(this.db, { name: task.name, holder: this.holder, run: number, until: now }).catch(
        (err: unknown) => this.log.warn({ err, task: task.name }, 'scheduler: could not hand a lease back'),
      );
      return;
    }
    const run: Run = {
      task,
      number,
      startedAt: now,
      renewAt: now + renewEvery(task),
      controller: new AbortController(),
      done: Promise.resolve(),
    };
    entry.run = run;
    this.runs.add(run);
    run.done = this.execute(entry, run);
  }

  private async execute(entry: Entry, run: Run): Promise<void> {
    const { task } = run;
    const signal = run.controller.signal;
    const ctx = this.context(task, run.number, run.startedAt, signal);
    let failure: { error: unknown } | null = null;
    try {
      // Off the tick's stack: a body's synchronous part runs after the tick's other attempts.
      await Promise.resolve();
      await task.run(ctx);
    } catch (error) {
      failure = { error };
    }
    const finished = this.now();
    const aborted = signal.aborted ? (signal.reason as RunAborted) : null;
    let nextAt: number;
    if (!failure) {
      // The lease spans the period: nobody runs it again before start + everyMs.
      nextAt = Math.max(run.startedAt + task.everyMs, finished);
    } else if (aborted && aborted.reason !== 'lease-lost') {
      // Stopped half-way by a shutdown (or removal): whoever has the task may redo it now.
      nextAt = finished;
      ctx.log.warn({ err: failure.error }, 'scheduled task stopped before it ended; its lease is released');
    } else {
      nextAt = Math.max(finished, Math.min(run.startedAt + task.everyMs, finished + task.retryMs));
      ctx.log.error(
        { err: failure.error, retryAt: nextAt },
        'scheduled task failed; it is tried again at its next attempt',
      );
    }
    try {
      await endRun(this.db, {
        name: task.name,
        holder: this.holder,
        run: run.number,
        now: finished,
        nextAt,
        error: failure ? errorText(failure.error) : null,
      });
    } catch (err) {
      // The lease then ends at its last heartbeat + leaseMs: someone may run it early, not twice at once.
      ctx.log.warn({ err }, 'scheduler: could not record the end of a run');
    }
    this.runs.delete(run);
    if (entry.run === run) {
      entry.run = null;
      entry.nextAt = nextAt;
    }
    this.arm();
  }

  private async renew(run: Run): Promise<void> {
    const { task } = run;
    const now = this.now();
    run.renewAt = now + renewEvery(task);
    try {
      const kept = await renewLease(this.db, {
        name: task.name,
        holder: this.holder,
        run: run.number,
        until: now + task.leaseMs,
      });
      if (!kept) {
        run.renewAt = Number.POSITIVE_INFINITY;
        this.log.error(
          { task: task.name, run: run.number },
          'scheduler: the lease passed to another process while the task ran (this one stalled past leaseMs); its run is told to stop',
        );
        run.controller.abort(new RunAborted('lease-lost'));
      }
    } catch (err) {
      // Two more heartbeats fit in the lease before anyone may take it over.
      this.log.warn({ err, task: task.name }, 'scheduler: could not renew the lease');
    }
  }

  private context(task: SettledTask, run: number, startedAt: number, signal: AbortSignal): TaskContext {
    return {
      db: this.db,
      now: this.now,
      signal,
      log: this.log.child({ task: task.name, run }),
      startedAt,
      run,
      holder: this.holder,
    };
  }

  /** The next moment something is due: a heartbeat, or an attempt (none once stopped). */
  private nextWake(): number {
    let at = Number.POSITIVE_INFINITY;
    for (const run of this.runs) at = Math.min(at, run.renewAt);
    if (!this.stopped && this.runs.size < this.maxConcurrent) {
      for (const entry of this.entries.values()) if (entry.run === null) at = Math.min(at, entry.nextAt);
    }
    return at;
  }

  /** Sets the one timer for the next wake-up (only once started). */
  private arm(): void {
    if (!this.isStarted) return;
    const at = this.nextWake();
    if (this.timer !== undefined && at === this.wakeAt) return;
    this.disarm();
    if (at === Number.POSITIVE_INFINITY) return;
    this.wakeAt = at;
    this.timer = this.timers.set(
      () => {
        this.timer = undefined;
        this.wakeAt = Number.POSITIVE_INFINITY;
        // Attempts and heartbeats catch their own errors; this is the last guard of the process.
        this.tick().catch((err: unknown) => {
          this.log.error({ err }, 'scheduler: a tick failed');
          this.arm();
        });
      },
      Math.min(Math.max(0, at - this.now()), MAX_DELAY_MS),
    );
  }

  private disarm(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
  }
}

function renewEvery(task: SettledTask): number {
  return Math.max(1, Math.floor(task.leaseMs / 3));
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
