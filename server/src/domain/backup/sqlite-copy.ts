/**
 * SQLite's side of backup and restore, both through SQLite's online backup API (better-sqlite3
 * `db.backup`), run in a worker thread so the server keeps answering meanwhile (163 MB: 1.5 s
 * of copying, which on the main thread would be 1.5 s without an answer).
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
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

/**
 * The worker's code, evaluated (CommonJS): a file of its own would need an entry of its own in the
 * server's build. better-sqlite3 is required by its resolved path, which the server passes in.
 * `progress` answers "all remaining pages" (better-sqlite3 caps the number it passes to SQLite),
 * so the copy is one step after the first, which only opens the backup.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const source = new Database(workerData.from, { readonly: true, fileMustExist: true });
source.pragma('busy_timeout = 5000');
source
  .backup(workerData.to, { progress: () => 0x7fffffff })
  .then(
    () => parentPort.postMessage({ ok: true }),
    (error) => parentPort.postMessage({ ok: false, message: String((error && error.message) || error) }),
  )
  .finally(() => source.close());
`;

const sqliteModule = createRequire(import.meta.url).resolve('better-sqlite3');

/** Copies the database `from` into the file `to` (created or overwritten) with the backup API. */
function backupInWorker(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { module: sqliteModule, from, to } });
    let answered = false;
    worker.once('message', (answer: { ok: boolean; message?: string }) => {
      answered = true;
      if (answer.ok) resolve();
      else reject(new Error(`SQLite backup failed: ${answer.message}`));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`SQLite backup worker exited with ${code}`));
    });
  });
}

export async function copySqlite(liveFile: string, target: string): Promise<void> {
  await backupInWorker(liveFile, target);
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

/**
 * The copy into the live file. The destination connection better-sqlite3 opens has no busy
 * timeout: a step that meets the writer's lock answers SQLITE_BUSY and is tried again.
 */
export async function restoreSqlite(copy: string, liveFile: string): Promise<void> {
  await backupInWorker(copy, liveFile);
}
