/**
 * Reads that do not depend on each other, sent at once on one connection: on PostgreSQL they
 * leave in one write and their answers come back together — one round trip where there were one
 * each (db/connect.ts `sendTogether`); on SQLite they run one after another, in-process as ever.
 * Inside a transaction they are the transaction's statements like any other. They are handed to
 * the connection directly (`getExecutor().provideConnection`, marked internal in Kysely 0.28 —
 * test/db/send-together.test.ts fails if that changes): through the query builders, Kysely makes
 * each statement of a transaction wait for the one before. No Kysely plugin is configured, so
 * none is skipped on the way.
 *
 * A null in place of a query (a read the caller does not need this time) answers no rows.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { TOGETHER, WITH_NEXT } from './connect.js';

// biome-ignore lint/suspicious/noExplicitAny: any database or transaction of this server
type AnyDb = Kysely<any>;
type RowsOf<Q> = Q extends Compilable<infer Row> ? Row[] : never[];

export async function readTogether<const Q extends readonly (Compilable<unknown> | null)[]>(
  db: AnyDb,
  queries: Q,
): Promise<{ -readonly [K in keyof Q]: RowsOf<Q[K]> }> {
  const compiled = queries.map((q) => q?.compile() ?? null);
  // Every statement but the last is held for the next (db/connect.ts `TOGETHER`); the last,
  // given in the same turn, sends them all.
  const last = compiled.findLastIndex((c) => c !== null);
  // Nothing to read: no connection taken.
  if (last < 0) return compiled.map(() => []) as { -readonly [K in keyof Q]: RowsOf<Q[K]> };
  const rows = await db
    .getExecutor()
    .provideConnection((connection) =>
      Promise.all(
        compiled.map((c, i) =>
          c
            ? connection.executeQuery(i < last ? { ...c, sql: `${TOGETHER}${c.sql}` } : c).then((r) => r.rows)
            : [],
        ),
      ),
    );
  return rows as { -readonly [K in keyof Q]: RowsOf<Q[K]> };
}

/**
 * A write whose answer nobody reads (an audit entry, an order's timeline line, a savepoint), inside a
 * transaction on PostgreSQL sent with the transaction's next statement — at the latest its COMMIT,
 * which then fails if this write did (db/connect.ts `sendTogether`). Outside a transaction, and
 * on SQLite, it is written at once.
 */
export async function writeWithNext(
  db: AnyDb,
  query: Compilable<unknown> | CompiledQuery<unknown>,
): Promise<void> {
  const compiled = 'compile' in query ? query.compile() : query;
  await db.executeQuery({ ...compiled, sql: `${WITH_NEXT}${compiled.sql}` });
}

/**
 * A write planned to go with other statements: its statements, and what to make of their rows
 * once they are back (check them, say why when they did not write, finish what depends on them).
 * A planned write never depends on a statement sent with it; the caller sends the statements in
 * the order the locks must be taken.
 */
export interface Planned<T> {
  queries: readonly Compilable<unknown>[];
  settle(rows: readonly unknown[][]): Promise<T>;
}

/** Carries out a plan alone: its statements in one round trip, then its checks. */
export async function carryOut<T>(db: AnyDb, plan: Planned<T>): Promise<T> {
  return plan.settle(await readTogether(db, plan.queries));
}

/**
 * Sends `first` and every plan's statements in one round trip (`readTogether`), in that order.
 * Answers `first`'s rows — for the caller to check before anything else (a status change that did
 * not happen refuses the whole write, whatever the plans found) — and each plan's rows, for the
 * caller to settle it with in its turn (a null plan: none).
 */
export async function sendPlanned(
  db: AnyDb,
  first: readonly (Compilable<unknown> | null)[],
  plans: readonly (Planned<unknown> | null)[],
): Promise<{ rows: unknown[][]; planRows: unknown[][][] }> {
  const all = (await readTogether(db, [...first, ...plans.flatMap((p) => p?.queries ?? [])])) as unknown[][];
  let at = first.length;
  const planRows = plans.map((plan) => {
    const mine = all.slice(at, at + (plan?.queries.length ?? 0));
    at += plan?.queries.length ?? 0;
    return mine;
  });
  return { rows: all.slice(0, first.length), planRows };
}
