/**
 * Two real server processes on one database (fixtures/scheduler-process.ts: the whole app,
 * listening, scheduler on), each with a task that writes a row per run. What a user of the
 * cluster can observe:
 *
 * - every period runs once: the runs' starts are at least `everyMs` apart and their numbers
 *   count up one by one, whichever process ran them;
 * - a process whose run is stuck keeps the other out with its heartbeat; killed (SIGKILL), the
 *   other takes the task over once the lease has expired, and carries on;
 * - the survivor stops gracefully on SIGTERM.
 *
 * Periods are short (200 ms): the assertions are about exclusivity, not punctuality. Waits are on
 * conditions with a deadline.
 *
 * SQLite too: both processes open the same file in WAL mode, and the lease statement runs in
 * SQLite's one write transaction at a time (busy_timeout makes the other wait), so it is as
 * atomic between processes as on PostgreSQL.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { readLease } from '../../src/scheduler/index.js';
import { createTestDatabase, DB_KINDS, type TestDatabase } from '../helpers/app.js';
import {
  createRunsTable,
  killAll,
  type RunRow,
  type RunsDb,
  readRuns,
  type ServerProcess,
  startServerProcess,
  until,
} from './fixtures/server-processes.js';

const TASK = 'test.twoProcesses';
const EVERY_MS = 200;
// Heartbeats every LEASE_MS / 3: the lease must outlast an event loop held up by a busy machine
// (the suite runs two files at once on 2 cores), or the other process rightly takes the lease of a
// process it cannot tell from a dead one — and the test would see a takeover it did not cause.
const LEASE_MS = 2000;
const WORK_MS = 50;

describe.each(DB_KINDS)('two server processes on one %s database', (kind) => {
  let db: TestDatabase;
  let handle: DatabaseHandle;
  let rows: RunsDb;
  const processes: ServerProcess[] = [];
  let hangFile: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    hangFile = path.join(db.dataDir, 'hang');
    handle = openDatabase(db.database);
    rows = handle.db as unknown as RunsDb;
    await createRunsTable(rows, kind);
  });

  afterAll(async () => {
    await killAll(processes);
    await handle?.close();
    await db?.drop();
  });

  const startProcess = () =>
    startServerProcess(
      db,
      {
        TEST_TASK_EVERY_MS: String(EVERY_MS),
        TEST_TASK_LEASE_MS: String(LEASE_MS),
        TEST_TASK_WORK_MS: String(WORK_MS),
        TEST_TASK_HANG_FILE: hangFile,
      },
      processes,
    );

  const allRuns = () => readRuns(rows);

  it('run each period once between them; a stuck process holds the task until killed, then the other carries on', {
    timeout: 120_000,
  }, async () => {
    // A alone takes the task from nothing.
    const a = await startProcess();
    await until(
      'A ran three times',
      async () => (await allRuns()).filter((r) => r.holder === a.holder).length >= 3,
    );

    // B joins: both try at every period's end, one runs it.
    const b = await startProcess();
    const withB = (await allRuns()).length;
    await until(
      'five more periods ran with both processes up',
      async () => (await allRuns()).length >= withB + 5,
    );

    // The next run hangs, in whichever process takes it; its heartbeat keeps the lease.
    writeFileSync(hangFile, '');
    let stuck: RunRow | undefined;
    // A run takes 50 ms; one unfinished after two lease lengths is the stuck one.
    await until('a run hangs', async () => {
      const now = Date.now();
      stuck = (await allRuns()).find((r) => r.finished_at === null && now - r.started_at > 2 * LEASE_MS);
      return stuck !== undefined;
    });
    rmSync(hangFile);
    const hung = stuck as RunRow;
    const [stuckProcess, survivor] = hung.holder === a.holder ? [a, b] : [b, a];
    // Two lease lengths of heartbeats: the other process tried and was refused all along.
    await until('the stuck run renewed its lease past two lease lengths', async () => {
      const lease = await readLease(handle.db, TASK);
      return lease !== undefined && lease.expiresAt >= hung.started_at + 2 * LEASE_MS;
    });
    expect((await allRuns()).filter((r) => r.started_at > hung.started_at)).toEqual([]);

    stuckProcess.child.kill('SIGKILL');
    await stuckProcess.exited;
    await until(
      'the survivor ran three times after the kill',
      async () => (await allRuns()).filter((r) => r.started_at > hung.started_at).length >= 3,
    );

    survivor.child.kill('SIGTERM');
    expect(await survivor.exited).toBe(0);

    const runs = await allRuns();
    const first = runs[0]?.started_at ?? 0;
    const summary = runs
      .map(
        (r) =>
          `${r.run} ${r.holder === a.holder ? 'A' : 'B'} +${r.started_at - first} ${r.finished_at === null ? 'unfinished' : ''}`,
      )
      .join('\n');
    // One run per period: starts at least a period apart, numbered one by one.
    for (let i = 1; i < runs.length; i++) {
      const gap = (runs[i] as RunRow).started_at - (runs[i - 1] as RunRow).started_at;
      expect(
        gap,
        `run ${(runs[i] as RunRow).run} started ${gap} ms after the one before:\n${summary}`,
      ).toBeGreaterThanOrEqual(EVERY_MS);
    }
    expect(runs.map((r) => r.run)).toEqual(runs.map((_r, i) => i + 1));
    expect(new Set(runs.map((r) => r.holder))).toEqual(new Set([a.holder, b.holder]));
    // Only the stuck run never finished; the survivor took over after its lease expired.
    expect(runs.filter((r) => r.finished_at === null)).toEqual([hung]);
    const after = runs.filter((r) => r.started_at > hung.started_at);
    expect(after.every((r) => r.holder === survivor.holder)).toBe(true);
    expect((after[0] as RunRow).started_at).toBeGreaterThanOrEqual(hung.started_at + 2 * LEASE_MS);
    // The survivor's graceful stop left the lease with it, its last run recorded.
    expect(await readLease(handle.db, TASK)).toMatchObject({
      holder: survivor.holder,
      runs: runs.length,
      lastError: null,
    });
  });
});
