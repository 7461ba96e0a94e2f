/**
 * The statement-counting proxy the round-trip tests and `BENCH_LOAD_COST` put in front of
 * PostgreSQL (testing/pg-statement-counter.ts) must behave as the connection it stands in for: a
 * connection PostgreSQL closes (a terminated backend, a restart) is closed for its client too, at
 * once. Left open, a client waiting for an answer could wait forever — what it sent next was
 * written to the closed side, which fails without an 'error' event: the dropped-transaction test of
 * shared-connection.test.ts hung in about two runs of five when its ROLLBACK came after the close.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUrl, type StatementCounter } from '../../../testing/pg-statement-counter.js';
import { createTestDatabase, DB_KINDS, type TestDatabase } from '../helpers/app.js';
import { withPg } from '../helpers/pg.js';

describe.skipIf(!DB_KINDS.includes('postgres'))('the statement-counting proxy', () => {
  let database: TestDatabase;
  let counter: StatementCounter;
  let url: string;
  let direct: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { empty: true });
    if (database.database.dialect !== 'postgres') throw new Error('a PostgreSQL database was asked for');
    direct = database.database.url;
    const counted = await countedUrl(direct);
    counter = counted.counter;
    url = counted.url;
  });
  afterAll(async () => {
    await counter?.close();
    await database?.drop();
  });

  it('closes the client’s connection when PostgreSQL closes its side', async () => {
    const through = new pg.Client({ connectionString: url });
    through.on('error', () => {});
    await through.connect();
    const ended = new Promise<void>((resolve) => through.once('end', () => resolve()));
    const pid = ((await through.query('select pg_backend_pid() as pid')).rows[0] as { pid: number }).pid;

    // Ended from another connection while the client sends nothing.
    await withPg(direct, (other) => other.query('select pg_terminate_backend($1)', [pid]));
    await ended;
    await expect(through.query('select 1')).rejects.toThrow();
  });
});
