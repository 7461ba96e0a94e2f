/**
 * Server configuration, read once from the environment. Everything else takes a `ServerConfig`
 * so tests can build an app from plain values (and an injectable clock) without touching
 * `process.env`. The table of variables lives in server/CONFIG.md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type DatabaseConfig =
  | { dialect: 'sqlite'; file: string }
  | {
      dialect: 'postgres';
      url: string;
      poolSize: number;
      /** `DATABASE_PREPARED=off`: every statement unnamed, for a pooler that cannot keep them (db/connect.ts). */
      prepared?: boolean;
      /** `DATABASE_PIPELINE=off`: each statement waits for the answer to the one before (db/connect.ts). */
      pipeline?: boolean;
    };

export type TrustProxy = boolean | number | string[];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Talking to receipt printers (domain/printing): every wait is bounded. */
export interface PrintingConfig {
  /** Connecting to the printer (the TCP handshake). */
  connectTimeoutMs: number;
  /** Sending a job until the printer acknowledges it by closing its side of the connection. */
  writeTimeoutMs: number;
  /** Tries per job before it is marked failed. */
  attempts: number;
  /** The wait before try n + 1 is n times this. */
  retryDelayMs: number;
}

/** Monitor jobs (domain/monitor-jobs): their scheduler's limit, history kept, jobs per user. */
export interface MonitoringConfig {
  /** Checks running at once in this process (its own scheduler, apart from the areas' timers). */
  maxConcurrent: number;
  /** Days of raw heartbeats kept; the daily roll-ups stay. */
  retentionDays: number;
  /** Monitor jobs one user may own. */
  maxJobsPerUser: number;
  /** Browser checks (headless Chromium pages) at once. */
  maxBrowserPages: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  /** Where the SQLite file (and later uploads) live; created at start. */
  dataDir: string;
  database: DatabaseConfig;
  /** Password for the `admin` account created on first start; generated when absent. */
  adminPassword: string | null;
  /** A captcha answer accepted for any valid captcha id — for automated tests only. */
  captchaTestCode: string | null;
  /** Create the demo users operator/editor/guest on first start. */
  demoUsers: boolean;
  /** The demo users' password when they are created (tests, CI); generated per user when absent. */
  demoPassword: string | null;
  /** Write the demo content of every resource on first start (an empty database). */
  demoContent: boolean;
  sessionTtlMs: number;
  /** SQLite: bytes of admin list rows kept as written JSON (resources/row-cache.ts); 0: none. */
  listRowCacheBytes: number;
  /** The built UI (Vite `dist`); `null` or a missing folder means "UI not built". */
  uiDist: string | null;
  trustProxy: TrustProxy;
  version: string;
  logLevel: LogLevel;
  /**
   * Run the areas' timers (server/src/scheduler) once the server listens. `SCHEDULER=off` keeps
   * them still: a process that only serves requests, or a test that drives them by hand.
   */
  scheduler: boolean;
  /** The clock, injectable so TTLs and rate-limit windows are testable without sleeping. */
  now: () => number;
  /** Printer timeouts and retries; each missing value takes its default (domain/printing/settings.ts). */
  printing?: Partial<PrintingConfig>;
  /** Monitor jobs; each missing value takes its default (domain/monitor-jobs/settings.ts). */
  monitoring?: Partial<MonitoringConfig>;
  /** Days of raw API-market calls (api_calls) kept; the daily roll-ups stay (domain/api-gateway). */
  apiCallRetentionDays?: number;
  /**
   * `ORDER_TIMERS_EVERY_MS`: the period of the order timers (domain/orders/timers.ts: unpaid
   * orders expiring, delivery orders completing), run once per period in the whole cluster.
   * Unset: 30 s (`ORDER_TIMERS_EVERY_MS` there). Tests shorten it to watch several server
   * processes share the timers without waiting half a minute per run.
   */
  orderTimersEveryMs?: number;
  /**
   * `REQUEST_CONCURRENCY`: requests doing their database work at once in this process, the rest
   * waiting their turn (http/admission.ts); 0 lets every request in at once. Unset: its default.
   */
  requestConcurrency?: number;
  /** Certificate checks (domain/certificates): each step's timeout (resolve, connect, STARTTLS, handshake). */
  sslCheckTimeoutMs?: number;
  /** CDN (domain/cdn): the largest access log one import reads (decompressed bytes) and the CNAME base. */
  cdn?: { importMaxBytes?: number; cnameBase?: string };
  /** Backup and restore (domain/backup): the largest archive a restore accepts. */
  backup?: { restoreMaxBytes?: number };
  /**
   * `PUBLIC_URL`: the origin users reach the site at (`https://wx.example.com`, no trailing
   * slash). Absolute links the server hands out (scan-to-login's confirmUrl) are built from it
   * instead of the request's Host header, which any caller can set. Unset: from the request.
   */
  publicUrl?: string | null;
  /** The key that encrypts secrets at rest (64 hex digits); unset: DATA_DIR/secret.key (domain/certificates/secret-box.ts). */
  secretKey?: string | null;
  /**
   * `BLOB_STORE`: where uploads are kept (files/blob-store.ts). `folder` (default): DATA_DIR/uploads;
   * `database`: the blobs table, readable by every server process on the database.
   */
  blobStore?: 'folder' | 'database';
}

// Both src/config.ts and the bundled dist/start.js sit one level below the package folder, so
// these relative URLs resolve the same from source (tsx, vitest) and from the build.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const defaultUiDist = fileURLToPath(new URL('../../ui/dist', import.meta.url));

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function nonEmpty(value: string | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  return n;
}

const OFF = new Set(['0', 'false', 'off', 'no']);
const ON = new Set(['1', 'true', 'on', 'yes']);

/** A switch: on/true/1/yes or off/false/0/no; unset → `fallback`. */
function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  if (ON.has(raw.toLowerCase())) return true;
  if (OFF.has(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

/** `TRUST_PROXY`: off by default; `true`, a hop count, or a comma list of addresses/CIDRs. */
function trustProxy(raw: string | null): TrustProxy {
  if (raw === null || OFF.has(raw.toLowerCase())) return false;
  if (ON.has(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * `PUBLIC_URL`: an absolute http(s) origin, normalised (lower-case host, default port dropped, no
 * trailing slash). A path, query, fragment or credentials are refused rather than guessed at:
 * the UI is served from the root, so an origin is all a link needs.
 */
function publicUrl(raw: string | null): string | null {
  if (raw === null) return null;
  const refuse = (why: string) =>
    new ConfigError(
      `PUBLIC_URL must be an absolute http(s) origin such as https://wx.example.com (${why}), got "${raw}"`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('http or https only');
  if (!url.hostname) throw refuse('no host');
  if (url.username || url.password) throw refuse('no credentials');
  if (url.pathname !== '/' || url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    throw refuse('no path, query or fragment');
  }
  return url.origin;
}

function blobStore(raw: string | null): 'folder' | 'database' {
  if (raw === null) return 'folder';
  const kind = raw.toLowerCase();
  if (kind !== 'folder' && kind !== 'database') {
    throw new ConfigError(`BLOB_STORE must be folder or database, got "${raw}"`);
  }
  return kind;
}

function logLevel(raw: string | null): LogLevel {
  if (raw === null) return 'info';
  const level = raw.toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** WANXIANG_VERSION, else the checkout's short commit hash, else the package version. */
export function resolveVersion(explicit: string | null): string {
  if (explicit) return explicit;
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: packageDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    if (/^[0-9a-f]{4,40}$/.test(hash)) return hash;
  } catch {
    // not a git checkout, or git missing: fall through to the package version
  }
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? './data');
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  const database: DatabaseConfig =
    databaseUrl && /^postgres(ql)?:\/\//i.test(databaseUrl)
      ? // 20: measured against 5, 10, 16 and 32 on the orders list at 32 connections (BENCHMARKS.md, 2026-11-27).
        {
          dialect: 'postgres',
          url: databaseUrl,
          poolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 200),
          prepared: onOff(env, 'DATABASE_PREPARED', true),
          pipeline: onOff(env, 'DATABASE_PIPELINE', true),
        }
      : { dialect: 'sqlite', file: path.join(dataDir, 'wanxiang.db') };
  if (databaseUrl && database.dialect === 'sqlite') {
    throw new ConfigError(
      'DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)',
    );
  }
  const demo = nonEmpty(env.WANXIANG_DEMO);
  // on (default): demo accounts and demo content; `users`: the accounts only; off: neither.
  const demoMode =
    demo === null
      ? 'on'
      : OFF.has(demo.toLowerCase())
        ? 'off'
        : demo.toLowerCase() === 'users'
          ? 'users'
          : 'on';
  const uiDist = nonEmpty(env.UI_DIST);
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    dataDir,
    database,
    adminPassword: nonEmpty(env.WANXIANG_ADMIN_PASSWORD),
    captchaTestCode: nonEmpty(env.WANXIANG_CAPTCHA_TEST_CODE),
    demoUsers: demoMode !== 'off',
    demoPassword: nonEmpty(env.WANXIANG_DEMO_PASSWORD),
    demoContent: demoMode === 'on',
    sessionTtlMs: positiveNumber(env, 'SESSION_TTL_HOURS', 168) * 3_600_000,
    listRowCacheBytes: integer(env, 'LIST_ROW_CACHE_MB', 8, 0, 4096) * 2 ** 20,
    uiDist: uiDist ? path.resolve(uiDist) : defaultUiDist,
    trustProxy: trustProxy(nonEmpty(env.TRUST_PROXY)),
    publicUrl: publicUrl(nonEmpty(env.PUBLIC_URL)),
    version: resolveVersion(nonEmpty(env.WANXIANG_VERSION)),
    logLevel: logLevel(nonEmpty(env.LOG_LEVEL)),
    scheduler: onOff(env, 'SCHEDULER', true),
    now: Date.now,
    sslCheckTimeoutMs: integer(env, 'SSL_CHECK_TIMEOUT_MS', 10_000, 500, 60_000),
    apiCallRetentionDays: integer(env, 'API_CALL_RETENTION_DAYS', 90, 1, 3650),
    // At most 10 minutes: an unpaid order may wait up to one period past its 15 minutes.
    orderTimersEveryMs: integer(env, 'ORDER_TIMERS_EVERY_MS', 30_000, 100, 600_000),
    // Unset: http/admission.ts's measured default.
    ...(nonEmpty(env.REQUEST_CONCURRENCY) === null
      ? {}
      : { requestConcurrency: integer(env, 'REQUEST_CONCURRENCY', 0, 0, 10_000) }),
    secretKey: nonEmpty(env.WANXIANG_SECRET_KEY),
    blobStore: blobStore(nonEmpty(env.BLOB_STORE)),
    cdn: {
      importMaxBytes: integer(env, 'CDN_IMPORT_MAX_MB', 2048, 1, 1_048_576) * 2 ** 20,
      cnameBase: nonEmpty(env.CDN_CNAME_BASE) ?? undefined,
    },
    printing: {
      connectTimeoutMs: integer(env, 'PRINTER_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
      writeTimeoutMs: integer(env, 'PRINTER_WRITE_TIMEOUT_MS', 5000, 100, 120_000),
      attempts: integer(env, 'PRINTER_ATTEMPTS', 3, 1, 10),
      retryDelayMs: integer(env, 'PRINTER_RETRY_DELAY_MS', 1000, 0, 60_000),
    },
    backup: {
      restoreMaxBytes: integer(env, 'BACKUP_RESTORE_MAX_MB', 10_240, 1, 1_048_576) * 2 ** 20,
    },
    monitoring: {
      maxConcurrent: integer(env, 'MONITOR_MAX_CONCURRENT', 50, 1, 10_000),
      retentionDays: integer(env, 'MONITOR_RETENTION_DAYS', 30, 1, 3650),
      maxJobsPerUser: integer(env, 'MONITOR_MAX_JOBS_PER_USER', 20, 0, 100_000),
      maxBrowserPages: integer(env, 'MONITOR_MAX_BROWSER_PAGES', 2, 1, 32),
    },
  };
}
