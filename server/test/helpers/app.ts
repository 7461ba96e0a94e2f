/**
 * One way to get a fresh, real app for a test: its own SQLite file in a temp folder, or its
 * own PostgreSQL database when TEST_DATABASE_URL is set (test files run in parallel, so they
 * never share tables). Drive suites with `describe.each(DB_KINDS)`.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/app.js';
import type { DatabaseConfig, ServerConfig } from '../../src/config.js';
import { withPg } from './pg.js';

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

export interface CreateOptions {
  /**
   * Nothing in it: the app's first start migrates it from nothing. Otherwise it starts as a copy
   * of the run's migrated database (test/global-setup.ts) — tables, no rows.
   */
  empty?: boolean;
  /**
   * PostgreSQL: a new schema in `beside`'s database instead of a database of its own — another
   * install sharing one database (per-schema channels, tables).
   */
  beside?: TestDatabase;
}

function databaseUrl(name: string): string {
  const url = new URL(PG_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createTestDatabase(kind: DbKind, options: CreateOptions = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-test-'));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'wanxiang.db');
    const template = process.env.WANXIANG_TEST_SQLITE_TEMPLATE;
    if (template && !options.empty) copyFileSync(template, file);
    return { kind, dataDir, database: { dialect: 'sqlite', file }, drop: removeDir };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const suffix = randomBytes(6).toString('hex');
  const beside = options.beside?.database;
  if (beside && beside.dialect === 'postgres') {
    const schema = `t_${suffix}`;
    await withPg(beside.url, (c) => c.query(`create schema ${schema}`));
    const url = new URL(beside.url);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      kind,
      dataDir,
      database: { dialect: 'postgres', url: url.toString(), poolSize: 4 },
      drop: async () => {
        await withPg(beside.url, (c) => c.query(`drop schema if exists ${schema} cascade`));
        await removeDir();
      },
    };
  }
  // A database each (not a schema each in one database): Kysely's migrator introspects every
  // schema of its database, which grew slower with each file's schema until starts timed out.
  const name = `wx_${process.env.WANXIANG_TEST_RUN ?? 'solo'}_${suffix}`;
  const template = process.env.WANXIANG_TEST_PG_TEMPLATE;
  await withPg(PG_URL, (c) =>
    c.query(
      template && !options.empty ? `create database ${name} template ${template}` : `create database ${name}`,
    ),
  );
  return {
    kind,
    dataDir,
    database: { dialect: 'postgres', url: databaseUrl(name), poolSize: 4 },
    drop: async () => {
      await withPg(PG_URL, async (c) => {
        // A closed pool ends its connections without waiting for them to go: let them go first
        // (forcing them would send their clients an error nobody listens to any more).
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const { rows } = await c.query(
            'select count(*)::int as n from pg_stat_activity where datname = $1',
            [name],
          );
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      });
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
