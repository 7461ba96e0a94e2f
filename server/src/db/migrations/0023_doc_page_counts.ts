/**
 * Every document's `page_count` set to its pages: nothing kept it before (domain/docs/resource.ts
 * keeps it from now on), so a document written in the back office counted 0 pages in the library.
 */
import { sql } from 'kysely';
import type { DialectMigration } from './migration.js';

export const migration0023DocPageCounts: DialectMigration = {
  async up(db) {
    await sql`update docs set page_count = (select count(*) from doc_pages where doc_pages.doc_id = docs.id)
      where page_count is null or page_count <> (select count(*) from doc_pages where doc_pages.doc_id = docs.id)`.execute(
      db,
    );
  },
  // Nothing to undo: the counts are the pages' own, right with or without the code that keeps them.
  async down() {},
};
