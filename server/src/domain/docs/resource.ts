/**
 * Admin writes keep the search index in step: a document's create/update of its title or
 * summary, a page's create/update/delete, and a document's delete reindex (or drop) it in the
 * same transaction as the write, so a search never sees a write half-indexed.
 */
import type { EngineExtensions, ResourceHooks } from '../../resources/extensions.js';
import { reindexDoc, removeDoc } from './indexer.js';

const INDEXED_DOC_FIELDS = ['title', 'summary'];

const docHooks: ResourceHooks = {
  async afterWrite(ctx, id, values) {
    // A create has every field; an update only what changed.
    if (INDEXED_DOC_FIELDS.some((f) => f in values)) await reindexDoc(ctx.trx, ctx.dialect, id, ctx.now);
  },
  async afterDelete(ctx, id) {
    await removeDoc(ctx.trx, ctx.dialect, id);
  },
};

/** The document of a page being deleted, read before the row goes (afterDelete sees only the id). */
const deleting = new Map<number, number>();

async function docOfPage(db: Parameters<typeof reindexDoc>[0], pageId: number): Promise<number | null> {
  const row = (await db
    .selectFrom('doc_pages')
    .select('doc_id')
    .where('id', '=', pageId)
    .executeTakeFirst()) as { doc_id: number } | undefined;
  return row ? Number(row.doc_id) : null;
}

const pageHooks: ResourceHooks = {
  async afterWrite(ctx, id, values) {
    const docId = values.docId !== undefined ? Number(values.docId) : await docOfPage(ctx.trx, id);
    if (docId !== null) await reindexDoc(ctx.trx, ctx.dialect, docId, ctx.now);
  },
  async beforeDelete(ctx, id) {
    const docId = await docOfPage(ctx.trx, id);
    if (docId !== null) deleting.set(id, docId);
  },
  async afterDelete(ctx, id) {
    const docId = deleting.get(id) ?? null;
    deleting.delete(id);
    if (docId !== null) await reindexDoc(ctx.trx, ctx.dialect, docId, ctx.now);
  },
};

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('docs', docHooks);
  engine.registerResourceHooks('docPages', pageHooks);
}
