/**
 * The document search index (server/src/domain/docs/README.md): one posting per (term, doc) —
 * CJK unigrams and bigrams and Latin/digit words of a document's title, summary and pages —
 * kept in ranked order per term (title hits first, then hit count, then newest), and per
 * document the terms it is indexed under, so a reindex removes exactly its old postings.
 */
import { sql } from 'kysely';
import type { DialectMigration } from './migration.js';

export const migration0004DocSearch: DialectMigration = {
  async up(db, dialect) {
    if (dialect === 'sqlite') {
      // Clustered in the order a query reads a term's postings: no sort, no row lookups.
      await sql`create table doc_terms (
        term text not null,
        title integer not null,
        hits integer not null,
        doc_id integer not null,
        primary key (term, title desc, hits desc, doc_id desc)
      ) without rowid`.execute(db);
    } else {
      await db.schema
        .createTable('doc_terms')
        .addColumn('term', 'text', (c) => c.notNull())
        .addColumn('title', 'integer', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('doc_id', 'bigint', (c) => c.notNull())
        .execute();
      await sql`create index doc_terms_ranked_idx on doc_terms (term, title desc, hits desc, doc_id desc)`.execute(
        db,
      );
    }
    // "Does this document have that term?" — the probe for a query's other terms.
    await db.schema
      .createIndex('doc_terms_term_doc_idx')
      .on('doc_terms')
      .columns(['term', 'doc_id'])
      .execute();
    await db.schema
      .createTable('doc_index')
      .addColumn('doc_id', 'bigint', (c) => c.primaryKey())
      .addColumn('terms', 'text', (c) => c.notNull())
      .addColumn('indexed_at', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('doc_index').ifExists().execute();
    await db.schema.dropTable('doc_terms').ifExists().execute();
  },
};
