/**
 * Statements outside a transaction, from every request at once, sent together once per turn of
 * the event loop on one connection of the pool (PostgreSQL, pipeline mode): one write to the
 * database and one backend woken where there were one of each per statement.
 *
 * Why: on the two shared cores the server is measured on, the write that sends a statement is the
 * largest share of its thread's time under load (BENCHMARKS.md, thirteenth and twentieth
 * sessions), because each one wakes a database backend, which the kernel then often runs on the
 * server's own core (a woken reader is placed beside its writer) while the server waits for it.
 * A list, a detail, a public page is one statement (or one set sent together, db/together.ts) that
 * needs no connection of its own: with eight requests in flight, eight writes woke eight backends
 * for work one backend does in turn. Measured at 8 connections, each kind of list alone: 0.4–0.5
 * round trips a call instead of 1.0, PostgreSQL's CPU a call down a fifth; in the mixed load, the
 * server's thread waiting for a core 21–23 % of the run instead of 24–28 %, and a median 1 127
 * req/s against 989 in runs alternating with the build before (the machine swings more than that
 * from one run to the next).
 *
 * - Kysely asks the pool for a connection for each statement outside a transaction, and for each
 *   transaction. It is given a stand-in (`Lease`): a transaction's BEGIN binds it to a connection
 *   of the pool until the transaction ends, as before; any other statement joins this turn's.
 * - At the end of the turn (`setImmediate`: after every I/O callback of this pass of the loop) the
 *   turn's statements take one connection of the pool and leave corked in one write, in the order
 *   they were made; the connection goes back once all are answered. Each statement has its own
 *   Sync, so each is its own implicit transaction: one's failure is its own, and a write commits
 *   whatever else was sent with it. Answers come in order, so a slow statement holds up only its
 *   own turn's; the next turn takes another connection.
 * - A statement made alone waits for nothing: the loop's pass ends at once when nothing else is
 *   ready.
 * - A connection the database dropped under a statement goes back to the pool as dropped.
 * - Without pipeline mode (`DATABASE_PIPELINE=off`) nothing is shared: each statement would wait
 *   for the answer to the one before.
 */
import type pg from 'pg';

/** A transaction's first statement, as Kysely sends it (db/connect.ts watches for it too). */
export const BEGIN = /^\s*(begin|start transaction)\b/i;

type QueryArgs = Parameters<pg.PoolClient['query']>;

interface Waiting {
  args: QueryArgs;
  resolve(result: pg.QueryResult): void;
  reject(error: unknown): void;
}

export class SharingPool {
  /** This turn's statements outside a transaction, sent together when the turn ends. */
  private turn: Waiting[] | null = null;
  private readonly idle: Lease[] = [];

  constructor(readonly pool: pg.Pool) {}

  /** What Kysely's PostgresDriver asks for each statement or transaction. */
  connect(): Promise<Lease> {
    return Promise.resolve(this.idle.pop() ?? new Lease(this));
  }

  /** @internal A lease given back with nothing bound. */
  returned(lease: Lease): void {
    if (this.idle.length < 64) this.idle.push(lease);
  }

  /** A statement outside a transaction: sent with the rest of this turn's. */
  send(args: QueryArgs): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      if (!this.turn) {
        this.turn = [];
        setImmediate(() => this.flush());
      }
      this.turn.push({ args, resolve, reject });
    });
  }

  private flush(): void {
    const turn = this.turn ?? [];
    this.turn = null;
    this.pool.connect().then(
      (client) => {
        let left = turn.length;
        let dropped: Error | undefined;
        // Given back once every statement is answered — as dropped if the database dropped the
        // connection under one of them, so that pg-pool closes it instead of handing it out again
        // before it has heard of the drop itself (the next statement on it would fail too).
        const answered = () => {
          if (--left === 0) client.release(dropped);
        };
        const stream = client.connection.stream;
        stream.cork();
        try {
          for (const waiting of turn) {
            let answer: Promise<pg.QueryResult>;
            try {
              answer = (client.query as (...a: QueryArgs) => Promise<pg.QueryResult>)(...waiting.args);
            } catch (error) {
              waiting.reject(error);
              answered();
              continue;
            }
            answer.then(
              (result) => {
                waiting.resolve(result);
                answered();
              },
              (error: unknown) => {
                if (connectionLost(error)) dropped = error as Error;
                waiting.reject(error);
                answered();
              },
            );
          }
        } finally {
          stream.uncork();
        }
      },
      (error: unknown) => {
        for (const waiting of turn) waiting.reject(error);
      },
    );
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Whether a statement's failure means its connection is gone: the database ended the session
 * (a FATAL or PANIC error: a restart, `pg_terminate_backend`, an idle timeout), or the failure is
 * not the database's answer at all (no SQLSTATE: the socket closed, a protocol error). A
 * statement's own failure (a constraint, a division by zero) leaves the connection usable.
 */
function connectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return (
    severity === 'FATAL' || severity === 'PANIC' || typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)
  );
}

/** What Kysely holds as its connection: bound to a pool connection for a transaction only. */
export class Lease {
  private bound: pg.PoolClient | null = null;

  constructor(private readonly sharing: SharingPool) {}

  query(...args: QueryArgs): Promise<pg.QueryResult> {
    if (this.bound) return (this.bound.query as (...a: QueryArgs) => Promise<pg.QueryResult>)(...args);
    const text = args[0];
    if (typeof text === 'string' && BEGIN.test(text)) {
      return this.sharing.pool.connect().then((client) => {
        this.bound = client;
        return (client.query as (...a: QueryArgs) => Promise<pg.QueryResult>)(...args);
      });
    }
    return this.sharing.send(args);
  }

  /**
   * A transaction's connection is given back as Kysely gives it back. One the database dropped
   * under the transaction has by then failed its ROLLBACK too, and pg-pool, seeing it closed,
   * drops it (test/db/shared-connection.test.ts).
   */
  release(): void {
    const bound = this.bound;
    this.bound = null;
    if (bound) bound.release();
    this.sharing.returned(this);
  }
}
