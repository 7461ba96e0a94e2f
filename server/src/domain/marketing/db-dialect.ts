/** The dialect of a Kysely instance or transaction (for callers that hand over only `trx`). */
import { PostgresAdapter } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { AnyDb } from '../../resources/extensions.js';

export function dialectOf(db: AnyDb): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
