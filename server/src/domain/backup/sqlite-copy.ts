/**
 * SQLite's side of backup and restore, both through SQLite's online backup API (better-sqlite3
 * `db.backup`).
 *
 * Copy: from a read connection of its own, in **one** step. The backup API restarts a copy
 * whenever another connection writes between two steps, so a step-by-step copy of a busy
 * database may never finish; one step copies every page inside one read transaction — a
 * consistent snapshot — while the server's writer goes on (WAL: readers never block writers).
 *
 * Restore: from the extracted copy into the live file, again in one step. The backup API writes
 * through a connection of its own under SQLite's write lock and commits once, so the server's
 * writer and its read connections (db/sqlite-reader.ts) all see the restored pages on their next
 * statement — no connection has to be reopened, and a reader never sees half of it.
 */
import SqliteDatabase from 'better-sqlite3';

/** Pages per step: all of them (better-sqlite3 caps the number it passes to SQLite here). */
const ALL_PAGES = 0x7fffffff;

export async function copySqlite(liveFile: string, target: string): Promise<void> {
  const source = new SqliteDatabase(liveFile, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(target, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
}

export interface SqliteFacts {
  migration: string | null;
  tables: Record<string, number>;
}

/** Opens a copy read-only: its integrity, newest migration and rows per table. */
export function inspectSqlite(file: string): SqliteFacts {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
    const names = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .pluck()
      .all() as string[];
    const tables: Record<string, number> = {};
    for (const name of names)
      tables[name] = db
        .prepare(`select count(*) from "${name.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number;
    const migration = names.includes('kysely_migration')
      ? ((db.prepare('select max(name) from kysely_migration').pluck().get() as string | null) ?? null)
      : null;
    return { migration, tables };
  } finally {
    db.close();
  }
}

export async function restoreSqlite(copy: string, liveFile: string): Promise<void> {
  const source = new SqliteDatabase(copy, { readonly: true, fileMustExist: true });
  try {
    // The destination connection better-sqlite3 opens has no busy timeout: a step that meets the
    // writer's lock answers SQLITE_BUSY and better-sqlite3 tries again on the next tick.
    await source.backup(liveFile, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
}
