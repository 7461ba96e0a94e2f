/**
 * Opens the database named by the config: SQLite through better-sqlite3 (the embedded
 * default) or PostgreSQL through a pg pool. Both give the same typed Kysely instance.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type SqliteDatabase as KyselySqliteDatabase, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';

export type DialectName = DatabaseConfig['dialect'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

const INT8_OID = 20;

// PostgreSQL returns BIGINT as a string (it may exceed 2^53). Our BIGINTs are epoch
// milliseconds and counts, far below that, so this pool parses them to numbers and the code
// above the database sees the same types on both dialects. Per pool, not global.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
    return pg.types.getTypeParser(oid, format as any);
  },
};

/** Closing twice (app close after a failed start, then a signal) must not throw. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= close();
    return closing;
  };
}

function openSqlite(file: string): DatabaseHandle {
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers proceed during a write; NORMAL sync in WAL mode survives a process crash
  // (kill -9) with every committed transaction — a commit is in the WAL file (the OS's page cache)
  // before it returns; server/test/crash kills the server under a write load to hold us to it. A
  // power loss or OS crash may lose the last commits before a checkpoint's fsync, never the file's
  // consistency — the trade-off chosen for write speed, as most SQLite-backed servers make it;
  // FULL would fsync the WAL at every commit. busy_timeout waits for a concurrent writer
  // (another process, a backup) instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: once(() => db.destroy()) };
}

/** Distinct SQL texts kept prepared on the main connection (queries vary with their filters). */
const MAX_PREPARED = 300;
/** Longer SQL is a one-off (a bulk insert of many rows): prepared, used and dropped. */
const MAX_CACHED_SQL = 4000;

/**
 * The connection as Kysely sees it, with prepared statements kept by SQL text. Kysely prepares
 * every query again, and preparing costs more than running a small query: a third of the
 * database time of a signed-in list request went to preparing the session lookup and the
 * related names. A statement still busy (an open `iterate()`) is never handed out twice.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        // Most recently used last: the first entry is the one to drop.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (!cached && sql.length <= MAX_CACHED_SQL) {
        statements.set(sql, statement);
        if (statements.size > MAX_PREPARED) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      return statement;
    },
  };
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: once(() => db.destroy()) };
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  return config.dialect === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url, config.poolSize);
}
