/**
 * The lease of a scheduled task, one row of `scheduler_leases` per task name (migration 0010).
 * Every change is one statement whose condition is checked by the database as it writes, so it
 * holds between processes on SQLite (one writer at a time) and PostgreSQL (the row is locked and
 * the condition re-checked on its newest version) alike — never a read, then a write:
 *
 * - `takeLease`: insert the row, or take it over only where `expires_at` has come; the answer is
 *   the run's number (the row's `runs`, counted up by the same statement), or null when someone
 *   else's lease still holds;
 * - `renewLease` / `endRun`: only while the row still names this holder and this run's number —
 *   a holder that stalled past its lease and was replaced can neither extend nor end the other
 *   process's run.
 *
 * Times are the callers' clocks (epoch ms); README.md says why and what skew between hosts does.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export type LeaseDb = Kysely<Database>;

/** Host, pid and a random part: unique per process, and readable in the table. */
export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface Lease {
  name: string;
  holder: string;
  expiresAt: number;
  acquiredAt: number;
  runs: number;
  lastRunAt: number | null;
  lastError: string | null;
}

/**
 * Takes the lease `name` for `holder` until `until`, if nobody holds it at `now`. Answers the
 * run's number (1 for the first run of the name), or null when the lease is held.
 */
export async function takeLease(
  db: LeaseDb,
  lease: { name: string; holder: string; now: number; until: number },
): Promise<number | null> {
  const row = await db
    .insertInto('scheduler_leases')
    .values({
      name: lease.name,
      holder: lease.holder,
      expires_at: lease.until,
      acquired_at: lease.now,
      runs: 1,
      last_run_at: null,
      last_error: null,
    })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({
          holder: lease.holder,
          expires_at: lease.until,
          acquired_at: lease.now,
          runs: sql<number>`scheduler_leases.runs + 1`,
        })
        // Not "or held by me": after a run the lease still spans the period (README.md), and
        // a process taking its own unexpired lease again would run the task twice in it.
        .where('scheduler_leases.expires_at', '<=', lease.now),
    )
    .returning('runs')
    .executeTakeFirst();
  return row ? Number(row.runs) : null;
}

/** Extends run `run` of `holder` to `until`; false when the lease has passed to someone else. */
export async function renewLease(
  db: LeaseDb,
  lease: { name: string; holder: string; run: number; until: number },
): Promise<boolean> {
  const result = await db
    .updateTable('scheduler_leases')
    .set({ expires_at: lease.until })
    .where('name', '=', lease.name)
    .where('holder', '=', lease.holder)
    .where('runs', '=', lease.run)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records the end of run `run` at `now` (with its error, or null) and hands the lease on at
 * `nextAt`: the start of the next period after a run, `now` to let anyone take it at once.
 * False when the lease had already passed to someone else (nothing is written then).
 */
export async function endRun(
  db: LeaseDb,
  lease: { name: string; holder: string; run: number; now: number; nextAt: number; error: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('scheduler_leases')
    .set({ expires_at: lease.nextAt, last_run_at: lease.now, last_error: lease.error })
    .where('name', '=', lease.name)
    .where('holder', '=', lease.holder)
    .where('runs', '=', lease.run)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function readLease(db: LeaseDb, name: string): Promise<Lease | undefined> {
  const row = await db.selectFrom('scheduler_leases').selectAll().where('name', '=', name).executeTakeFirst();
  return row
    ? {
        name: row.name,
        holder: row.holder,
        expiresAt: Number(row.expires_at),
        acquiredAt: Number(row.acquired_at),
        runs: Number(row.runs),
        lastRunAt: row.last_run_at === null ? null : Number(row.last_run_at),
        lastError: row.last_error,
      }
    : undefined;
}

/** Forgets a lease (a monitor job deleted for good); a task still registered writes it anew. */
export async function deleteLease(db: LeaseDb, name: string): Promise<void> {
  await db.deleteFrom('scheduler_leases').where('name', '=', name).execute();
}
