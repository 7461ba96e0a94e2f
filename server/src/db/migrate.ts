/**
 * Runs the numbered migrations at start. The list is static (no directory scan) so the
 * bundled build carries its migrations with it.
 */
import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from 'kysely';
import type { DialectName } from './connect.js';
import { migration0001Auth } from './migrations/0001_auth.js';
import type { DialectMigration } from './migrations/migration.js';
import type { Database } from './schema.js';

/** In order; never renumber or edit a released entry — add a new one. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_auth': migration0001Auth,
};

function provider(dialect: DialectName) {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(MIGRATIONS).map(([name, m]) => [
          name,
          {
            up: (db) => m.up(db, dialect),
            down: m.down ? (db) => (m.down as NonNullable<DialectMigration['down']>)(db, dialect) : undefined,
          } satisfies Migration,
        ]),
      );
    },
  };
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(db: Kysely<Database>, dialect: DialectName): Promise<string[]> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told which
  // one: a second schema with its own kysely_migration table (another app, a test) would make
  // it skip creating ours. Pin them to the schema our tables go to (the search_path's first).
  let migrationTableSchema: string | undefined;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  const migrator = new Migrator({ db, provider: provider(dialect), migrationTableSchema });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new MigrationError(
      `database migration failed${failed ? ` at ${failed}` : ''}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
