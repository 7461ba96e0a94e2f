/**
 * One way to get a fresh, real app for a test: its own SQLite file in a temp folder, or its
 * own PostgreSQL schema when TEST_DATABASE_URL is set (test files run in parallel, so they
 * never share tables). Drive suites with `describe.each(DB_KINDS)`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../../src/app.js';
import type { DatabaseConfig, ServerConfig } from '../../src/config.js';

export type DbKind = 'sqlite' | 'postgres';

const PG_URL = process.env.TEST_DATABASE_URL;
export const DB_KINDS: DbKind[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const TEST_CAPTCHA_CODE = 'T3st';
export const ADMIN_PASSWORD = 'admin-pass-1';
/** The demo accounts' password (WANXIANG_DEMO_PASSWORD): without it each would be generated. */
export const DEMO_PASSWORD = 'demo-pass-1';

/** A clock the test moves by hand: TTLs and rate-limit windows without sleeping. */
export class TestClock {
  current = Date.UTC(2025, 0, 1, 8, 0, 0);
  readonly now = () => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

/** A database a test may open several apps on, one after the other. */
export interface TestDatabase {
  kind: DbKind;
  dataDir: string;
  database: DatabaseConfig;
  drop(): Promise<void>;
}

async function withPg<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-test-'));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    return {
      kind,
      dataDir,
      database: { dialect: 'sqlite', file: path.join(dataDir, 'wanxiang.db') },
      drop: removeDir,
    };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  // Within a run (test/global-setup.ts) schemas are dropped when the run ends: a drop while
  // another file migrates breaks that migration (Kysely introspects every schema).
  const run = process.env.WANXIANG_TEST_RUN;
  const schema = `t_${run ? `${run}_` : ''}${randomBytes(6).toString('hex')}`;
  await withPg((c) => c.query(`create schema ${schema}`));
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind,
    dataDir,
    database: { dialect: 'postgres', url: url.toString(), poolSize: 4 },
    drop: async () => {
      if (!run) await withPg((c) => c.query(`drop schema if exists ${schema} cascade`));
      await removeDir();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  clock: TestClock;
  db: TestDatabase;
  /** Log lines (JSON) at level error and above. */
  logs: string[];
  close(): Promise<void>;
}

export interface StartOptions extends Pick<BuildOptions, 'beforeReady' | 'tasks'> {
  config?: Partial<ServerConfig>;
  /** Reuse a database (and keep it on close); otherwise a fresh one is made and dropped. */
  db?: TestDatabase;
  clock?: TestClock;
}

export async function startTestApp(kind: DbKind, options: StartOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase(kind));
  const clock = options.clock ?? new TestClock();
  const config: ServerConfig = {
    port: 0,
    host: '127.0.0.1',
    dataDir: db.dataDir,
    database: db.database,
    adminPassword: ADMIN_PASSWORD,
    captchaTestCode: TEST_CAPTCHA_CODE,
    demoUsers: true,
    demoPassword: DEMO_PASSWORD,
    // ~3 s per app: the demo tests seed explicitly.
    demoContent: false,
    sessionTtlMs: 168 * 3_600_000,
    listRowCacheBytes: 8 * 2 ** 20,
    uiDist: null,
    trustProxy: false,
    version: 'test-version',
    logLevel: 'error',
    // Timers never start under app.inject() anyway; off also keeps a listening test app still.
    // Scheduler tests drive them with app.scheduler.tick() or runBody().
    scheduler: false,
    now: clock.now,
    ...options.config,
  };
  const logs: string[] = [];
  let app: FastifyInstance;
  try {
    app = await buildApp(config, {
      logStream: { write: (line) => logs.push(line) },
      beforeReady: options.beforeReady,
      tasks: options.tasks,
    });
  } catch (error) {
    if (!options.db) await db.drop();
    throw error;
  }
  return {
    app,
    config,
    clock,
    db,
    logs,
    close: async () => {
      await app.close();
      if (!options.db) await db.drop();
    },
  };
}
