/**
 * What the blog knows about stored images (server/src/domain/blog/README.md): each image blob's
 * pixel size and the thumbnail made from it, keyed by the blob id. Filled on upload, and lazily
 * for images stored before (the demo's photos), so the gallery can give every <img> its
 * width and height.
 */
import type { DialectMigration } from './migration.js';

export const migration0005Blog: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('image_files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('thumb_id', 'text')
      .addColumn('thumb_width', 'integer')
      .addColumn('thumb_height', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('image_files_thumb_id_idx').on('image_files').column('thumb_id').execute();
  },

  async down(db) {
    await db.schema.dropTable('image_files').ifExists().execute();
  },
};
