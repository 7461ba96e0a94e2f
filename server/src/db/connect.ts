/**
 * Opens the database named by the config: SQLite through better-sqlite3 (the embedded
 * default) or PostgreSQL through a pg pool. Both give the same typed Kysely instance.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  type SqliteDatabase as KyselySqliteDatabase,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { leanQuery } from './lean-query.js';
import type { Database } from './schema.js';
import { BEGIN, SharingPool } from './shared-connection.js';

export type DialectName = DatabaseConfig['dialect'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** PostgreSQL: told after each commit of this process that wrote to the sign-in tables. */
  authWrites?: AuthWrites;
  /**
   * PostgreSQL: reads the tables' columns, after the migrations ran, for the statements of a
   * transaction to spell out their `*` (and so be named: `nameStatements`).
   */
  learnColumns?(): Promise<void>;
}

/**
 * The tables a session lookup reads (domain/auth/sessions.ts): a write to them may change what
 * a kept lookup answers (domain/auth/pg-session-memo.ts).
 */
const AUTH_WRITE =
  /^\s*(?:update|insert\s+into|delete\s+from|truncate(?:\s+table)?)\s+"?(?:sessions|users|user_roles|roles)"?[\s(]/i;

/**
 * Of `users` and `roles` a lookup reads only these columns — the columns the database's triggers
 * watch too (migration 0022): an update that sets none of them (a balance or points move, the
 * last sign-in time) changes no lookup, and must not drop every kept one, as each payment did.
 */
export const LOOKUP_COLUMNS: Readonly<Record<string, ReadonlySet<string>>> = {
  users: new Set(['status', 'deleted_at', 'username', 'nickname', 'avatar']),
  roles: new Set(['name']),
};

/**
 * Whether a write to the sign-in tables (`AUTH_WRITE`) may change a lookup. Only an update in the
 * form Kysely writes (`update "users" set "a" = …, "b" = … where …`) whose every target is
 * recognised and none of them read counts as harmless; anything else — another form, a subquery
 * in the values, a target not found — counts as a change.
 */
export function changesSessionLookup(text: string): boolean {
  const update = /^\s*update\s+"(users|roles)"\s+set\s+([\s\S]*?)\s+where\s/i.exec(text);
  const read = update && LOOKUP_COLUMNS[update[1] as string];
  if (!update || !read) return true;
  const assignments = update[2] as string;
  if (/\bselect\b/i.test(assignments)) return true;
  const targets = [...assignments.matchAll(/(?:^|,\s*)"(\w+)"\s*=(?!=)/g)].map((m) => m[1] as string);
  // As many targets as top-level assignments: each `"x" =` found at the start of one.
  const starts = assignments.split(/,(?![^()]*\))/).length;
  if (targets.length === 0 || targets.length !== starts) return true;
  return targets.some((column) => read.has(column));
}

/** Listeners told once a write of this process to the sign-in tables is committed. */
export class AuthWrites {
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Tells `writes` when a statement that wrote to the sign-in tables is committed: at once outside
 * a transaction, at its COMMIT inside one (a kept lookup read between the statement and the
 * commit still read the old rows, and the commit drops it). Told after the database answered, so
 * before this process can answer the request that made the change.
 */
function watchAuthWrites(writes: AuthWrites, client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let inTransaction = false;
  let touched = false;
  client.query = ((...args: QueryArgs) => {
    const first = args[0] as unknown;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') return query(...args);
    let tell = false;
    if (BEGIN.test(text)) {
      inTransaction = true;
      touched = false;
    } else if (/^\s*commit\s*$/i.test(text)) {
      tell = touched;
      inTransaction = false;
      touched = false;
    } else if (/^\s*rollback\s*$/i.test(text)) {
      inTransaction = false;
      touched = false;
    } else if (AUTH_WRITE.test(text) && changesSessionLookup(text)) {
      if (inTransaction) touched = true;
      else tell = true;
    }
    if (!tell) return query(...args);
    // A callback-style call (pg's own Pool.query): told when it is answered.
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = ((...done: unknown[]) => {
        writes.committed();
        return (callback as (...a: unknown[]) => unknown)(...done);
      }) as never;
      return query(...args);
    }
    return (query(...args) as Promise<unknown>).then(
      (value) => {
        writes.committed();
        return value;
      },
      (error) => {
        writes.committed();
        throw error;
      },
    );
  }) as pg.PoolClient['query'];
}

const INT8_OID = 20;

// PostgreSQL returns BIGINT as a string (it may exceed 2^53). Our BIGINTs are epoch
// milliseconds and counts, far below that, so this pool parses them to numbers and the code
// above the database sees the same types on both dialects. Per pool, not global.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return Number;
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

/** Distinct SQL texts given a prepared statement's name (names are per connection in PostgreSQL). */
const MAX_NAMED = 500;
/** Longer SQL is a one-off (a bulk insert of many rows), as for SQLite's statement cache. */
const MAX_NAMED_SQL = 4000;
/**
 * SQL text → its statement's name; null: sent unnamed (a result type changed under a plan). One
 * per pool: its connections share the names (each prepares a name the first time it runs it).
 */
type StatementNames = Map<string, string | null>;

function statementName(statementNames: StatementNames, sql: string): string | null {
  const known = statementNames.get(sql);
  if (known !== undefined) return known;
  if (statementNames.size >= MAX_NAMED || sql.length > MAX_NAMED_SQL) return null;
  if (!/^\s*(select|insert|update|delete|with)\b/i.test(sql)) return null;
  const name = `wx${statementNames.size + 1}`;
  statementNames.set(sql, name);
  return name;
}

type QueryArgs = Parameters<pg.PoolClient['query']>;

/**
 * A table's columns as this process's migrations left them, by table (`learnColumns`, after they
 * ran); empty until then.
 */
export type TableColumns = Map<string, readonly string[]>;

/** One pool's columns, and its SQL as Kysely wrote it → as sent (null: as written). */
interface Spelling {
  columns: TableColumns;
  spelled: Map<string, string | null>;
}

/** `select * from "t" …` of one table (no join): its `*` can be that table's columns. */
const SELECT_STAR = /^select \* from "(\w+)"(?= where | order by | limit | for |$)/;
/**
 * `… returning *` of an insert, an update without FROM, or a delete without USING; the write may
 * follow one read-only `with "x" as (select …)` (an order's number taken from its sequence).
 */
const RETURNING_STAR =
  /^(?:with "\w+" as \(select (?:(?!insert |update |delete |" as \().)*?\) )?(?:insert into|update|delete from) "(\w+)" .* returning \*$/s;

/**
 * The SQL with the `*` of a one-table select, or of a write's `returning *`, written out as that
 * table's columns — the same rows, in the same order, as long as nobody changes the table; null
 * when there is nothing to write out (or the table is not known).
 */
export function spellOutStar(text: string, columns: TableColumns): string | null {
  const list = (table: string | undefined) => {
    const names = table === undefined ? undefined : columns.get(table);
    return names && names.length > 0 ? names.map((c) => `"${c.replaceAll('"', '""')}"`).join(', ') : null;
  };
  const select = SELECT_STAR.exec(text);
  if (select) {
    const spelled = list(select[1]);
    return spelled ? `select ${spelled}${text.slice('select *'.length)}` : null;
  }
  const write = RETURNING_STAR.exec(text);
  if (write && !/^update .* from "/s.test(text) && !/^delete .* using "/s.test(text)) {
    const spelled = list(write[1]);
    return spelled ? `${text.slice(0, -'*'.length)}${spelled}` : null;
  }
  return null;
}

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it each time: on a 2-core
 * machine, planning the orders list's page took as long as running it, on the database's share
 * of the same cores (~0.4–1 ms a query, bench/orders.ts). A connection sends the statements it
 * has seen as named ones — parsed once per connection, each run a bind and an execute.
 *
 * A prepared statement whose rows are `*` fails with "cached plan must not change result type"
 * (0A000) once another process adds a column (a rolling upgrade). Outside a transaction that is
 * retried unnamed here, and the SQL never named again. Inside one it would abort the transaction,
 * so there a statement is named only when it names its result columns or answers none
 * (`ROW_STAR`). Most of a write's statements are `select * from` one table or end in
 * `returning *` (the engine reads and answers whole rows): their `*` is written out as the
 * table's columns as this process's migrations made them (`spellOutStar`), which a column added
 * later does not change — this process reads the rows it knows, as before, and the statement can
 * be named. That took an order payment's statements on PostgreSQL from half named to all named:
 * the database's CPU for the load's writes fell by about a third (BENCHMARKS.md, 2026-11-27
 * fourth session).
 */
const ROW_STAR = /(?:^|[\s,])(?:"?\w+"?\.)?\*(?:[\s,)]|$)/;
/** `ROW_STAR`'s answer by SQL text: the same few hundred texts come back on every write. */
const rowStar = new Map<string, boolean>();
function answersStar(text: string): boolean {
  let star = rowStar.get(text);
  if (star === undefined) {
    star = ROW_STAR.test(text);
    if (rowStar.size < MAX_NAMED) rowStar.set(text, star);
  }
  return star;
}
function nameStatements(statementNames: StatementNames, spelling: Spelling, client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const { columns, spelled } = spelling;
  let inTransaction = false;
  client.query = ((...args: QueryArgs) => {
    const [written, values, callback] = args as unknown[];
    if (typeof written !== 'string' || callback !== undefined) return query(...args);
    if (BEGIN.test(written)) inTransaction = true;
    else if (/^\s*(commit|rollback)\s*$/i.test(written)) inTransaction = false;
    let text = written;
    if (inTransaction && columns.size > 0) {
      let known = spelled.get(written);
      if (known === undefined && spelled.size < MAX_NAMED) {
        known = spellOutStar(written, columns);
        spelled.set(written, known);
      }
      text = known ?? written;
    }
    const name = inTransaction && answersStar(text) ? null : statementName(statementNames, text);
    if (!name || (values !== undefined && !Array.isArray(values))) return query(text, ...args.slice(1));
    return leanQuery(query, { name, text, values: values as unknown[] | undefined }).catch(
      (error: { code?: string }) => {
        if (error?.code !== '0A000') throw error;
        statementNames.set(text, null);
        return query(text, values);
      },
    );
  }) as pg.PoolClient['query'];
}

/** What a held statement answers before it is sent: a BEGIN, or a write no one reads back. */
const BEGUN = { command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] } as unknown as pg.QueryResult;
const HELD = { command: 'HELD', rowCount: null, oid: 0, rows: [], fields: [] } as unknown as pg.QueryResult;
const ROLLBACK = /^\s*rollback\s*$/i;
const END = /^\s*(commit|rollback)\s*$/i;

/**
 * Marks a statement, inside a transaction, to be sent with the transaction's next one (db/together.ts
 * `writeWithNext`): a write whose answer nobody reads (an audit entry, an order's timeline line).
 */
export const WITH_NEXT = '/* with next */ ';
/**
 * Marks a statement to be sent with the next one, which its caller sends at once (db/together.ts
 * `readTogether`: every read but the last); it answers with its own result.
 */
export const TOGETHER = '/* together */ ';

/** A statement held for the next one; `answer` when its caller waits for its own result. */
interface Held {
  args: QueryArgs;
  answer?: { resolve(result: unknown): void; reject(error: unknown): void };
}

/**
 * Fewer round trips and fewer writes to PostgreSQL, on a pool in pipeline mode (a statement is
 * sent without waiting for the answer to the one before; answers come back in order). Statements
 * held for the next one leave with it in one write: one system call and one wake-up of the
 * database's backend where there were one each — on a machine of two shared cores those writes
 * were the largest share of the server's thread under load (BENCHMARKS.md, 2026-11-27, fifth and
 * seventh sessions) — and one round trip.
 * - Independent reads (`readTogether`, marked `TOGETHER`): each answers with its own result.
 * - A transaction's BEGIN, and a statement marked `WITH_NEXT` inside one, are answered at once:
 *   the statement they leave with answers only after all of them (one that failed fails it: the
 *   transaction is then aborted, and its COMMIT with it). Every transaction is a round trip
 *   shorter, and its audit entry leaves with its COMMIT. A ROLLBACK answers for itself (the failure
 *   that led to it is the one to report). Kysely ends every transaction with a COMMIT or a
 *   ROLLBACK, so nothing held outlives its transaction; outside one, only `TOGETHER` statements
 *   are held, and their caller sends the last of them at once.
 * Installed last, so the other wrappers see each statement as it is actually sent.
 */
function sendTogether(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const stream = client.connection.stream;
  let inTransaction = false;
  let held: Held[] = [];
  client.query = ((...args: QueryArgs) => {
    const [text, values, callback] = args as unknown[];
    const promised = typeof text === 'string' && callback === undefined && typeof values !== 'function';
    if (promised && !inTransaction && BEGIN.test(text)) {
      inTransaction = true;
      if (values === undefined || (Array.isArray(values) && values.length === 0)) {
        held.push({ args });
        return Promise.resolve(BEGUN);
      }
    }
    let sent = args;
    if (promised && text.startsWith(TOGETHER)) {
      const together = [text.slice(TOGETHER.length), ...args.slice(1)] as QueryArgs;
      return new Promise((resolve, reject) => held.push({ args: together, answer: { resolve, reject } }));
    }
    if (promised && text.startsWith(WITH_NEXT)) {
      sent = [text.slice(WITH_NEXT.length), ...args.slice(1)] as QueryArgs;
      if (inTransaction) {
        held.push({ args: sent });
        return Promise.resolve(HELD);
      }
    }
    const ends = promised && END.test(text);
    if (ends) inTransaction = false;
    if (held.length === 0) return query(...sent);
    const flushed = held;
    held = [];
    const before: Promise<unknown>[] = [];
    let answer: Promise<unknown>;
    stream.cork();
    try {
      for (const h of flushed) {
        const result = query(...h.args);
        if (h.answer) result.then(h.answer.resolve, h.answer.reject);
        else before.push(result);
      }
      answer = query(...sent);
    } finally {
      stream.uncork();
    }
    if (!promised || (ends && ROLLBACK.test(text as string))) {
      for (const b of before) b.catch(() => {});
      return answer;
    }
    return Promise.all([...before, answer]).then((answers) => answers.at(-1));
  }) as pg.PoolClient['query'];
}

function openPostgres(url: string, poolSize: number, prepared: boolean, pipeline: boolean): DatabaseHandle {
  // Pipeline mode for `sendTogether`: nothing here keeps a portal open across round trips (no
  // cursors: exports read in keyset pages), which pipeline mode refuses. Off
  // (`DATABASE_PIPELINE=off`, for a pooler that mishandles pipelined statements), what
  // `sendTogether` holds is still sent in order, each statement after the answer to the one before.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes, pipeline });
  // Off for a pooler in transaction mode that does not carry prepared statements (PgBouncer
  // before 1.21, or without max_prepared_statements): `DATABASE_PREPARED=off`.
  const spelling: Spelling = { columns: new Map(), spelled: new Map() };
  if (prepared) {
    const names: StatementNames = new Map();
    pool.on('connect', (client) => nameStatements(names, spelling, client));
  }
  // A connection the database dropped (a restart, a failover, `pg_terminate_backend`, an idle
  // timeout): the statements on it fail on their own, and pg-pool drops it when it comes back or
  // while idle. Its 'error' event, emitted besides, must not end the process — without a listener
  // it was an uncaught exception, and a database restart took the server down with it
  // (test/db/shared-connection.test.ts).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const authWrites = new AuthWrites();
  pool.on('connect', (client) => watchAuthWrites(authWrites, client));
  pool.on('connect', (client) => sendTogether(client));
  // Statements outside a transaction are sent together, a turn of the event loop's at a time
  // (db/shared-connection.ts); without pipeline mode each would wait for the answer to the one
  // before, so nothing is shared.
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: pipeline ? (new SharingPool(pool) as unknown as pg.Pool) : pool }),
  });
  return {
    db,
    dialect: 'postgres',
    close: once(() => db.destroy()),
    authWrites,
    async learnColumns() {
      const rows = await sql<{ table: string; column: string }>`
        select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
      const { columns, spelled } = spelling;
      columns.clear();
      spelled.clear();
      for (const { table, column } of rows.rows) columns.set(table, [...(columns.get(table) ?? []), column]);
    },
  };
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  return config.dialect === 'sqlite'
    ? openSqlite(config.file)
    : openPostgres(config.url, config.poolSize, config.prepared ?? true, config.pipeline ?? true);
}
