/**
 * Keeps the search index (doc_terms, doc_index; README.md) in step with the documents: a
 * document is indexed under the terms of its title, summary and pages, whatever its status —
 * queries check status, category and validity against docs, so workflow transitions (publish,
 * unpublish), which run no hooks, never leave the index stale.
 */
import { indexTerms } from '@wanxiang/core';
import { sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { AnyDb } from '../../resources/extensions.js';

export interface IndexedText {
  title: string;
  summary: string | null;
  pages: readonly string[];
}

/** [term, in title (0/1), hits]: a document's postings. */
export type Posting = [string, 0 | 1, number];

/** Hit counts are capped: beyond this a document is not "more about" the term. */
export const MAX_HITS = 30_000;

export function postingsOf(text: IndexedText): Posting[] {
  const inTitle = indexTerms(text.title);
  const all = indexTerms(text.title);
  if (text.summary) indexTerms(text.summary, all);
  for (const page of text.pages) indexTerms(page, all);
  const out: Posting[] = [];
  for (const [term, hits] of all) out.push([term, inTitle.has(term) ? 1 : 0, Math.min(hits, MAX_HITS)]);
  return out;
}

/** Rows per INSERT: 4 values each, under SQLite's 32 766 bound parameters. */
const CHUNK = 5_000;

export async function insertPostings(
  db: AnyDb,
  dialect: DialectName,
  rows: readonly (readonly [string, number, number, number])[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    if (dialect === 'postgres') {
      // One parameter per column: PostgreSQL parses four arrays, not 20 000 placeholders.
      await sql`insert into doc_terms (term, title, hits, doc_id)
        select * from unnest(${chunk.map((r) => r[0])}::text[], ${chunk.map((r) => r[1])}::int[],
          ${chunk.map((r) => r[2])}::int[], ${chunk.map((r) => r[3])}::bigint[])`.execute(db);
    } else {
      await sql`insert into doc_terms (term, title, hits, doc_id) values ${sql.join(
        chunk.map((r) => sql`(${r[0]}, ${r[1]}, ${r[2]}, ${r[3]})`),
      )}`.execute(db);
    }
  }
}

async function oldTerms(db: AnyDb, dialect: DialectName, docId: number, now: number): Promise<string[]> {
  // The doc_index row doubles as the lock that serializes two reindexes of one document.
  await sql`insert into doc_index (doc_id, terms, indexed_at) values (${docId}, '', ${now})
    on conflict (doc_id) do nothing`.execute(db);
  const { rows } = await (dialect === 'postgres'
    ? sql<{ terms: string }>`select terms from doc_index where doc_id = ${docId} for update`
    : sql<{ terms: string }>`select terms from doc_index where doc_id = ${docId}`
  ).execute(db);
  const terms = rows[0]?.terms ?? '';
  return terms ? terms.split(' ') : [];
}

async function deletePostings(db: AnyDb, docId: number, terms: readonly string[]): Promise<void> {
  for (let start = 0; start < terms.length; start += 1_000) {
    const chunk = terms.slice(start, start + 1_000);
    await sql`delete from doc_terms where doc_id = ${docId} and term in (${sql.join(chunk)})`.execute(db);
  }
}

/** Indexes one document afresh from what the database holds now (run it in the write's transaction). */
export async function reindexDoc(db: AnyDb, dialect: DialectName, docId: number, now: number): Promise<void> {
  const doc = (await db
    .selectFrom('docs')
    .select(['title', 'summary', 'deleted_at'])
    .where('id', '=', docId)
    .executeTakeFirst()) as { title: string; summary: string | null; deleted_at: number | null } | undefined;
  if (!doc || doc.deleted_at !== null) {
    await removeDoc(db, dialect, docId);
    return;
  }
  const pages = (await db
    .selectFrom('doc_pages')
    .select('content')
    .where('doc_id', '=', docId)
    .orderBy('page_no')
    .execute()) as { content: string }[];
  const postings = postingsOf({ title: doc.title, summary: doc.summary, pages: pages.map((p) => p.content) });
  await deletePostings(db, docId, await oldTerms(db, dialect, docId, now));
  await insertPostings(
    db,
    dialect,
    postings.map(([term, title, hits]) => [term, title, hits, docId] as const),
  );
  await sql`update doc_index set terms = ${postings.map((p) => p[0]).join(' ')}, indexed_at = ${now}
    where doc_id = ${docId}`.execute(db);
}

export async function removeDoc(db: AnyDb, dialect: DialectName, docId: number): Promise<void> {
  const terms = await oldTerms(db, dialect, docId, 0);
  await deletePostings(db, docId, terms);
  await sql`delete from doc_index where doc_id = ${docId}`.execute(db);
}

/** Throws the index away and indexes every live document again (after a bulk load or a restore). */
export async function rebuildDocIndex(db: AnyDb, dialect: DialectName, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`delete from doc_terms`.execute(trx);
    await sql`delete from doc_index`.execute(trx);
    const docs = (await trx
      .selectFrom('docs')
      .select('id')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute()) as { id: number }[];
    for (const { id } of docs) await reindexDoc(trx, dialect, Number(id), now);
    return docs.length;
  });
}
