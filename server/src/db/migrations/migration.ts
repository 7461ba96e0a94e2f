import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../connect.js';

/**
 * A numbered migration. It is told the dialect so one file can say the few things SQLite and
 * PostgreSQL spell differently (auto-increment keys) and stay portable everywhere else.
 */
export interface DialectMigration {
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is typed now
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  down?(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

/** An auto-increment integer primary key on either dialect. */
export function idColumn(dialect: DialectName) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres'
      ? col.primaryKey().generatedByDefaultAsIdentity()
      : col.primaryKey().autoIncrement();
}
