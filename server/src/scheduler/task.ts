/**
 * What a scheduled task is (a domain area gives these: `DomainArea.tasks`), and what its body is
 * handed when it runs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface TaskContext {
  db: Kysely<Database>;
  /** The server's clock (`config.now`): a test's TestClock moves it. */
  now(): number;
  /**
   * Aborted when the run should stop early: the server is shutting down, the task was
   * unregistered, or the lease passed to another process (this one stalled past `leaseMs`).
   * Long tasks check it between batches; a task that stops on it is retried elsewhere.
   */
  signal: AbortSignal;
  /** The server's logger with `{ task, run }`. */
  log: FastifyBaseLogger;
  /**
   * When this run took its lease (the clock's time): the period it stands for starts here, and
   * no other run of the task in the cluster starts before `startedAt + everyMs`.
   */
  startedAt: number;
  /** This run's number, counted by the lease row across every process (0: run by hand, `runBody`). */
  run: number;
  /** The process running it (host:pid:random). */
  holder: string;
}

export interface ScheduledTask {
  /**
   * The lease's name, unique in the cluster: `<area>.<what>` (`marketing.expireCoupons`), with
   * `:<key>` for one of many of a kind (`monitor.check:42`). At most 200 characters.
   */
  name: string;
  /** The period: one run per `everyMs` in the whole cluster, measured from a run's start. */
  everyMs: number;
  /**
   * How long a running process's lease lasts without a heartbeat (renewed every third of it):
   * how long a crashed process holds the task up. Default 30 s.
   */
  leaseMs?: number;
  /** After a failed run, the next attempt comes this soon (never later than the next period). Default: min(everyMs, 1 min). */
  retryMs?: number;
  /** The first attempt after registering waits a random part of this, so tasks registered together spread out. */
  jitterMs?: number;
  run(ctx: TaskContext): Promise<void> | void;
}

export const DEFAULT_LEASE_MS = 30_000;
const MAX_RETRY_MS = 60_000;
const MAX_NAME_LENGTH = 200;

/** A task with every default filled in. */
export type SettledTask = Required<Omit<ScheduledTask, 'run'>> & Pick<ScheduledTask, 'run'>;

function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${what} must be a positive integer, got ${value}`);
  return value;
}

/** Checks a task's numbers once, at registration, and fills in the defaults. */
export function settleTask(task: ScheduledTask): SettledTask {
  if (!task.name || task.name.length > MAX_NAME_LENGTH) {
    throw new Error(`a scheduled task needs a name of 1–${MAX_NAME_LENGTH} characters, got "${task.name}"`);
  }
  const everyMs = positiveInteger(task.everyMs, `${task.name}: everyMs`);
  const leaseMs = positiveInteger(task.leaseMs ?? DEFAULT_LEASE_MS, `${task.name}: leaseMs`);
  if (leaseMs < 3) throw new Error(`${task.name}: leaseMs must be at least 3`);
  return {
    name: task.name,
    everyMs,
    leaseMs,
    retryMs: positiveInteger(task.retryMs ?? Math.min(everyMs, MAX_RETRY_MS), `${task.name}: retryMs`),
    jitterMs:
      task.jitterMs === undefined || task.jitterMs === 0
        ? 0
        : positiveInteger(task.jitterMs, `${task.name}: jitterMs`),
    run: task.run,
  };
}
