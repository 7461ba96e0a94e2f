/**
 * Admin writes keep the search index in step: a document's create/update of its title or
 * summary, a page's create/update/delete, and a document's delete reindex (or drop) it in the
 * same transaction as the write, so a search never sees a write half-indexed.
 *
 * A page's write also sets its document's `pageCount` (read-only in the form: the pages are what
 * counts), in the same transaction. Before, nothing kept it: a document written in the back
 * office listed 0 页 in the library and its search results while its reader showed its pages. A
 * page moved to another document reindexes and recounts both.
 *
 * A document has one page of each number (409 第 N 页已存在 otherwise): a second page 3 was stored,
 * and the reader, which opens a page by its number, never showed it. Checked in the write's
 * transaction with the document's row locked first (`lockDocs`), so two editors adding the same
 * number at the same instant on PostgreSQL take turns and the second is refused — not a unique
 * index: the registry has no two-column one, and an install may already hold such pages (they
 * stay readable and can be renumbered). SQLite runs one write transaction at a time already.
 */

import { conflict } from '../../http/envelope.js';
import type { AnyDb, EngineExtensions, ResourceHooks, WriteContext } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
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

async function docOfPage(db: AnyDb, pageId: number): Promise<number | null> {
  const row = (await db
    .selectFrom('doc_pages')
    .select('doc_id')
    .where('id', '=', pageId)
    .executeTakeFirst()) as { doc_id: number } | undefined;
  return row ? Number(row.doc_id) : null;
}

/** A document whose pages changed: indexed again and its pages counted. */
async function pagesChanged(ctx: WriteContext, docId: number): Promise<void> {
  await reindexDoc(ctx.trx, ctx.dialect, docId, ctx.now);
  await ctx.trx
    .updateTable('docs')
    .set((eb) => ({
      page_count: eb.selectFrom('doc_pages').select(eb.fn.countAll().as('n')).where('doc_id', '=', docId),
      // A new stamp: rendered rows are cached by it (resources/row-cache.ts). So a document's form
      // opened before a page was added answers 409 on save, as for any other change of the row.
      updated_at: nextUpdatedAt(ctx.now),
    }))
    .where('id', '=', docId)
    .execute();
}

/**
 * Locks the documents' rows (PostgreSQL) until the transaction ends, in id order so two writes
 * over the same documents cannot wait on each other: a page write's check and count then see
 * every other page write to those documents that committed before it.
 */
async function lockDocs(ctx: WriteContext, ids: readonly number[]): Promise<void> {
  if (ctx.dialect !== 'postgres' || ids.length === 0) return;
  await ctx.trx.selectFrom('docs').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Refuses a page whose number its document already has. */
async function refuseTakenNumber(
  ctx: WriteContext,
  id: number,
  docId: number,
  pageNo: number,
): Promise<void> {
  const taken = await ctx.trx
    .selectFrom('doc_pages')
    .select('id')
    .where('doc_id', '=', docId)
    .where('page_no', '=', pageNo)
    .where('id', '!=', id)
    .limit(1)
    .executeTakeFirst();
  if (taken) {
    const message = `第 ${pageNo} 页已存在`;
    throw conflict(message, { pageNo: message });
  }
}

const pageHooks: ResourceHooks = {
  async afterWrite(ctx, id, values, before) {
    const docId = values.docId !== undefined ? Number(values.docId) : await docOfPage(ctx.trx, id);
    const pageNo = values.pageNo ?? before?.pageNo;
    const left = before?.docId == null ? null : Number(before.docId);
    await lockDocs(
      ctx,
      [docId, left].filter((d): d is number => d !== null),
    );
    if (docId !== null && pageNo != null && ('docId' in values || 'pageNo' in values))
      await refuseTakenNumber(ctx, id, docId, Number(pageNo));
    if (docId !== null) await pagesChanged(ctx, docId);
    if (left !== null && left !== docId) await pagesChanged(ctx, left);
  },
  async beforeDelete(ctx, id) {
    const docId = await docOfPage(ctx.trx, id);
    if (docId !== null) deleting.set(id, docId);
  },
  async afterDelete(ctx, id) {
    const docId = deleting.get(id) ?? null;
    deleting.delete(id);
    if (docId !== null) await pagesChanged(ctx, docId);
  },
};

export function register(engine: EngineExtensions): void {
  engine.registerResourceHooks('docs', docHooks);
  engine.registerResourceHooks('docPages', pageHooks);
}
