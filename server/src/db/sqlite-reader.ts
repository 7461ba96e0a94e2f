/**
 * Reads on SQLite that run on every request (the session lookup, the engine's lists, totals,
 * relation names, exports) go through a read-only better-sqlite3 connection of their own, with
 * prepared statements kept and rows read as arrays.
 *
 * Why (profiled on 1 000 000 orders, `node --cpu-prof`, 32 connections on the list): Kysely's
 * SQLite driver prepares every statement again on every call (≈10 % of the server's time) and
 * better-sqlite3 builds an object per row (a 35-column order row costs 2.4× as much as its
 * array), and every query also waited in line behind the one shared connection. The SQL is still
 * built and compiled by Kysely (query.ts): only its execution moves here.
 *
 * Consistency: the connection reads in autocommit mode, so every statement sees everything
 * committed before it started — a write through the engine is visible to the next list — and
 * never a transaction still open on the main connection. Statements are run to completion with
 * `all()` (never left open across an `await`), so no read transaction outlives one call.
 */
import SqliteDatabase from 'better-sqlite3';

/** Distinct SQL texts kept prepared (a list's SQL varies with its filters, order and paging). */
const MAX_STATEMENTS = 500;

export interface ArrayRows {
  columns: readonly string[];
  rows: unknown[][];
}

interface Prepared {
  statement: SqliteDatabase.Statement;
  columns: string[];
}

export class SqliteReader {
  private readonly db: SqliteDatabase.Database;
  private readonly statements = new Map<string, Prepared>();
  private version: SqliteDatabase.Statement | null = null;
  /** What `use` added (SQL functions), given to every fork too. */
  private readonly setups: ((db: SqliteDatabase.Database) => void)[] = [];

  constructor(
    readonly file: string,
    options: { cacheKiB?: number; mmapBytes?: number } = {},
  ) {
    this.db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    // A checkpoint or a recovery by the writer may hold the file briefly: wait as the writer does.
    this.db.pragma('busy_timeout = 5000');
    if (options.cacheKiB !== undefined)
      this.db.pragma(`cache_size = -${Math.max(64, Math.floor(options.cacheKiB))}`);
    if (options.mmapBytes !== undefined) this.db.pragma(`mmap_size = ${Math.floor(options.mmapBytes)}`);
  }

  /**
   * A read connection of its own, for one long read (an export): it does not push the pages of
   * the lists out of this connection's cache, and its own small cache goes when it is closed.
   */
  fork(cacheKiB: number): SqliteReader {
    const fork = new SqliteReader(this.file, { cacheKiB });
    for (const setup of this.setups) fork.use(setup);
    return fork;
  }

  /**
   * Adds to the connection what a reader's SQL needs (the lists' `wx_wire` function,
   * resources/sqlite-json.ts), here and on every fork.
   */
  use(setup: (db: SqliteDatabase.Database) => void): void {
    setup(this.db);
    this.setups.push(setup);
  }

  private prepared(sql: string): Prepared {
    const hit = this.statements.get(sql);
    if (hit) {
      // Most recently used last: the first entry is the one to drop.
      this.statements.delete(sql);
      this.statements.set(sql, hit);
      return hit;
    }
    const statement = this.db.prepare(sql);
    if (!statement.reader) throw new Error('SqliteReader runs only statements that return rows');
    statement.raw(true);
    const prepared = { statement, columns: statement.columns().map((c) => c.name) };
    this.statements.set(sql, prepared);
    if (this.statements.size > MAX_STATEMENTS) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    return prepared;
  }

  /** Every row of a query as arrays in the order of `columns`. */
  arrays(sql: string, parameters: readonly unknown[]): ArrayRows {
    const prepared = this.prepared(sql);
    const rows = prepared.statement.all(parameters as unknown[]) as unknown[][];
    // A schema change re-prepares the statement behind the scenes (`select *` of a table that
    // gained a column): read the columns again.
    if (rows.length > 0 && (rows[0] as unknown[]).length !== prepared.columns.length)
      prepared.columns = prepared.statement.columns().map((c) => c.name);
    return { columns: prepared.columns, rows };
  }

  /**
   * Calls `onRow` with each row of a query as an array, in order, as SQLite steps to it; answers
   * the number of rows. Rows are not gathered: a row the caller is done with is
   * garbage before the next one is read, so a long read (an export) keeps V8's young generation
   * at its smallest instead of promoting a whole batch that outlived a scavenge (measured on
   * 500 000 orders: 4 MB young generation against 32 MB for `all()`, and no slower). The
   * statement runs to its end synchronously; `onRow` must not use this connection. `columns` is
   * the same array for every row (a new one only after a schema change re-prepared the query).
   */
  each(
    sql: string,
    parameters: readonly unknown[],
    onRow: (row: unknown[], columns: readonly string[]) => void,
  ): number {
    const prepared = this.prepared(sql);
    let count = 0;
    for (const row of prepared.statement.iterate(parameters as unknown[]) as IterableIterator<unknown[]>) {
      if (count === 0 && row.length !== prepared.columns.length)
        prepared.columns = prepared.statement.columns().map((c) => c.name);
      count++;
      onRow(row, prepared.columns);
    }
    return count;
  }

  /**
   * A query prepared once whose first row (an array, or undefined) each call answers: for a query
   * run many times in a row (an export's name lookups), without the statement cache's bookkeeping.
   */
  firstRowOf(sql: string): (parameters: readonly unknown[]) => unknown[] | undefined {
    const statement = this.db.prepare(sql).raw(true);
    return (parameters) => statement.get(parameters as unknown[]) as unknown[] | undefined;
  }

  /**
   * SQLite's `PRAGMA data_version` on this connection: it moves whenever another connection — the
   * server's writer, another process — commits to the file, and only then (this connection never
   * writes). A value read from this connection stays true while it is unchanged. ~0.7 µs.
   */
  dataVersion(): number {
    this.version ??= this.db.prepare('pragma data_version').pluck(true);
    return this.version.get() as number;
  }

  /** Every row of a query as objects (for small answers: counts, names). */
  objects(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] {
    const { columns, rows } = this.arrays(sql, parameters);
    return rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) row[columns[i] as string] = values[i];
      return row;
    });
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}
