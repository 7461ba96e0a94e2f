/** The dialect of a Kysely instance or transaction (for callers that hand over only `trx`). */
import { type Kysely, PostgresAdapter } from 'kysely';
import type { DialectName } from './connect.js';

// biome-ignore lint/suspicious/noExplicitAny: any database or transaction, whatever its schema type
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
