/**
 * Two real server processes on one database (fixtures/monitor-process.ts), both running their
 * monitor runner, with the same job: each period's check runs once in the cluster. The job is
 * written straight into the table with a 1 s interval (the definition's minimum is 20 s; this
 * test is about exclusivity, and 20 s periods would make it minutes long). What is observed:
 * the heartbeats (monitor_runs) and the requests the watched server received.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, DB_KINDS, type TestDatabase } from '../helpers/app.js';
import { fixtureArgs } from '../helpers/fixture-process.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./fixtures/monitor-process.ts', import.meta.url));
const INTERVAL_MS = 1000;

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(50);
  }
}

describe.each(DB_KINDS)('two server processes checking one job on %s', (kind) => {
  let db: TestDatabase;
  let handle: DatabaseHandle;
  // biome-ignore lint/suspicious/noExplicitAny: monitor tables are not in the schema type
  let q: Kysely<any>;
  let server: http.Server;
  let requests = 0;
  const children: { child: ChildProcess; exited: Promise<number | null> }[] = [];

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      requests += 1;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    db = await createTestDatabase(kind);
    handle = openDatabase(db.database);
    q = handle.db as unknown as typeof q;
    await migrateToLatest(handle.db, kind);
    const now = Date.now();
    await q
      .insertInto('monitor_jobs')
      .values({
        name: '双进程',
        kind: 'http',
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        method: 'GET',
        interval_s: INTERVAL_MS / 1000,
        retry_interval_s: INTERVAL_MS / 1000,
        timeout_ms: 2000,
        accepted_status: '200-299',
        max_retries: 0,
        follow_redirects: 1,
        ignore_tls: 0,
        status: 'pending',
        retry_count: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });

  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await handle?.close();
    await db?.drop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  async function startProcess(): Promise<string> {
    let output = '';
    const child = spawn(process.execPath, await fixtureArgs(SCRIPT), {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        DATA_DIR: db.dataDir,
        DATABASE_URL: db.database.dialect === 'postgres' ? db.database.url : '',
        WANXIANG_DEMO: 'off',
        WANXIANG_ADMIN_PASSWORD: 'admin-pass-1',
        UI_DIST: path.join(db.dataDir, 'no-ui'),
        LOG_LEVEL: 'warn',
        SCHEDULER: 'on',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    children.push({ child, exited });
    return new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk;
        const match = /^ready (\S+)$/m.exec(output);
        if (match) resolve(match[1] as string);
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk;
      });
      void exited.then((code) => reject(new Error(`the server process exited (${code}):\n${output}`)));
    });
  }

  const heartbeats = async () =>
    (await q.selectFrom('monitor_runs').select(['at', 'status']).orderBy('at').execute()).map((r) => ({
      at: Number(r.at),
      status: String(r.status),
    }));

  it('checks the job once per period between them', { timeout: 120_000 }, async () => {
    await Promise.all([startProcess(), startProcess()]);
    // Both runners have loaded the job; let several periods pass.
    await until('eight checks', async () => (await heartbeats()).length >= 8);
    for (const c of children) c.child.kill('SIGTERM');
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0]);

    const beats = await heartbeats();
    // Every check the watched server received is recorded, once — except one the SIGTERM may
    // have caught in flight: a check aborted by shutdown records nothing (by design).
    expect(
      requests - beats.length,
      `${requests} requests, ${beats.length} heartbeats`,
    ).toBeGreaterThanOrEqual(0);
    expect(requests - beats.length, `${requests} requests, ${beats.length} heartbeats`).toBeLessThanOrEqual(
      1,
    );
    expect(beats.every((b) => b.status === 'up')).toBe(true);
    // One check per period. Two processes checking the same period would start within
    // milliseconds of each other; the runner itself takes a check as due half a period early
    // (runner.ts `due`), so a check a busy machine delayed may be followed by the next, on time,
    // less than a period later — never less than half. And no more checks than periods.
    const gaps = beats.slice(1).map((b, i) => b.at - (beats[i] as { at: number }).at);
    expect(Math.min(...gaps), `gaps ${gaps.join(', ')}`).toBeGreaterThanOrEqual(INTERVAL_MS / 2);
    const span = (beats.at(-1)?.at ?? 0) - (beats[0]?.at ?? 0);
    expect((beats.length - 1) * INTERVAL_MS, `gaps ${gaps.join(', ')}`).toBeLessThanOrEqual(
      span + INTERVAL_MS / 2,
    );
    // And the job's roll-ups count them all.
    const rollup = await q
      .selectFrom('monitor_rollups')
      .select(['up', 'down'])
      .where('period', '=', 'day')
      .execute();
    expect(rollup.reduce((n, r) => n + Number(r.up) + Number(r.down), 0)).toBe(beats.length);
  });
});
