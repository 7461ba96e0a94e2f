/**
 * The document library's reads: the category tree with counts, the list of a category, the
 * search (README.md for the design) and one page of a document. Routes and the benchmark call
 * these same functions.
 */
import {
  type CategoryNode,
  type DocHit,
  type DocSearchResult,
  escapeHtml,
  normalizeText,
  parseQuery,
  snippetOf,
  type Validity,
} from '@wanxiang/core';
import { sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { inlineLimit } from '../../db/limit.js';
import { readTogether } from '../../db/together.js';
import type { AnyDb } from '../../resources/extensions.js';

/** A search ranks at most this many matches (the total says "at least" beyond it). */
export const MATCH_CAP = 500;
/**
 * At most this many postings of the driving term are read (in ranked order: title hits, then
 * most hits): the work of a query is bounded whatever the corpus; the total is then a lower bound.
 */
export const SCAN_CAP = 1_000;
/** Document frequency is counted up to this; above it a term is simply "common". */
const DF_PROBE = 5_000;

interface CategoryRow {
  id: number;
  name: string;
  parent_id: number | null;
  sort: number;
}

async function categoryRows(db: AnyDb): Promise<CategoryRow[]> {
  const rows = (await db
    .selectFrom('doc_categories')
    .select(['id', 'name', 'parent_id', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute()) as CategoryRow[];
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    parent_id: r.parent_id === null ? null : Number(r.parent_id),
  }));
}

/** The category and all below it (a cycle made by hand in the admin cannot loop). */
function descendantsOf(rows: readonly CategoryRow[], rootId: number): number[] {
  const children = new Map<number, number[]>();
  for (const r of rows)
    if (r.parent_id !== null) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
  const out = new Set<number>([rootId]);
  const queue = [rootId];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (!out.has(child)) {
        out.add(child);
        queue.push(child);
      }
    }
  }
  return [...out];
}

export async function categoryTree(db: AnyDb): Promise<CategoryNode[]> {
  const rows = await categoryRows(db);
  const counts = (await db
    .selectFrom('docs')
    .select(['category_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null)
    .groupBy('category_id')
    .execute()) as { category_id: number; n: number | string }[];
  const own = new Map(counts.map((c) => [Number(c.category_id), Number(c.n)]));
  const nodes = new Map<number, CategoryNode>(
    rows.map((r) => [
      r.id,
      { id: r.id, name: r.name, parentId: r.parent_id, count: 0, ownCount: own.get(r.id) ?? 0, children: [] },
    ]),
  );
  const roots: CategoryNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id) as CategoryNode;
    const parent = r.parent_id !== null && r.parent_id !== r.id ? nodes.get(r.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const seen = new Set<number>();
  const total = (node: CategoryNode): number => {
    if (seen.has(node.id)) return 0;
    seen.add(node.id);
    node.count = node.ownCount + node.children.reduce((sum, c) => sum + total(c), 0);
    return node.count;
  };
  for (const root of roots) total(root);
  return roots;
}

export interface DocQuery {
  q?: string;
  categoryId?: number;
  validity?: Validity;
  page: number;
  limit: number;
}

interface DocRow {
  id: number;
  title: string;
  doc_no: string | null;
  issuer: string | null;
  publish_date: string | null;
  effective_date: string | null;
  validity: Validity;
  summary: string | null;
  category_id: number;
  page_count: number | null;
  views: number | null;
}

const DOC_COLUMNS = [
  'id',
  'title',
  'doc_no',
  'issuer',
  'publish_date',
  'effective_date',
  'validity',
  'summary',
  'category_id',
  'page_count',
  'views',
] as const;

function hitOf(row: DocRow): DocHit {
  return {
    id: Number(row.id),
    title: row.title,
    docNo: row.doc_no,
    issuer: row.issuer,
    publishDate: row.publish_date,
    effectiveDate: row.effective_date,
    validity: row.validity,
    summary: row.summary,
    snippet: row.summary
      ? escapeHtml(row.summary.length > 120 ? `${row.summary.slice(0, 120)}…` : row.summary)
      : null,
    titleHtml: escapeHtml(row.title),
    hitPage: null,
    categoryId: Number(row.category_id),
    pageCount: Number(row.page_count ?? 0),
    views: Number(row.views ?? 0),
  };
}

function pathOf(rows: readonly CategoryRow[], id: number | undefined): { id: number; name: string }[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const path: { id: number; name: string }[] = [];
  let at = id === undefined ? undefined : byId.get(id);
  while (at && path.length < 20) {
    path.unshift({ id: at.id, name: at.name });
    at = at.parent_id === null ? undefined : byId.get(at.parent_id);
  }
  return path;
}

interface PageText {
  doc_id: number;
  page_no: number;
  content: string;
  /** The document's pages in all. */
  pages: number | string;
}

/**
 * A search's snippets are read from the pages of its results' documents in page order, the first
 * page holding the phrase giving it. A short document's pages (up to `SHORT_DOC_PAGES`) are read
 * whole with the documents; of a longer one only the first `SNIPPET_FIRST_PAGES`, and the rest
 * only when the phrase is not on them (a hit further on, in the summary or the title only) — one
 * more round trip then.
 *
 * Why: every page of every result was read — a page of ten statutes of a few hundred pages each
 * was megabytes of text, decoded and normalised to mark a few words — while where the phrase is,
 * it is mostly near the start (a statute's 第一条 names its subject). Short documents keep the one
 * round trip: on the demo's (4–5 pages) reading two first sent 60 % of searches back for the
 * rest (the bench's queries are words of titles) — more statements, no less CPU. The pages are
 * counted where they are read: exact whatever wrote them, in the statement that reads them anyway.
 */
export const SNIPPET_FIRST_PAGES = 2;
export const SHORT_DOC_PAGES = 8;

function snippetPages(db: AnyDb, docIds: readonly number[], which: 'first' | 'rest') {
  // Numbered and counted on the keys alone; the text is read only for the pages chosen.
  const ranked = db
    .selectFrom('doc_pages')
    .select([
      'doc_id',
      'page_no',
      sql<number>`row_number() over (partition by doc_id order by page_no)`.as('n'),
      sql<number>`count(*) over (partition by doc_id)`.as('pages'),
    ])
    .where('doc_id', 'in', docIds)
    .as('r');
  const pages = db
    .selectFrom(ranked)
    .innerJoin('doc_pages as dp', (join) =>
      join.onRef('dp.doc_id', '=', 'r.doc_id').onRef('dp.page_no', '=', 'r.page_no'),
    )
    .select(['r.doc_id', 'r.page_no', 'dp.content', 'r.pages']);
  return (
    which === 'first'
      ? pages.where((eb) =>
          eb.or([eb('r.n', '<=', SNIPPET_FIRST_PAGES), eb('r.pages', '<=', SHORT_DOC_PAGES)]),
        )
      : pages.where('r.n', '>', SNIPPET_FIRST_PAGES)
  )
    .orderBy('r.doc_id')
    .orderBy('r.page_no');
}

function pagesByDoc(pages: readonly PageText[]): Map<number, PageText[]> {
  const byDoc = new Map<number, PageText[]>();
  for (const p of pages) {
    const list = byDoc.get(Number(p.doc_id)) ?? [];
    list.push(p);
    byDoc.set(Number(p.doc_id), list);
  }
  return byDoc;
}

/** The list (no q) or the search (q) of published documents; what GET /api/public/docs answers. */
export async function searchDocs(db: AnyDb, dialect: DialectName, query: DocQuery): Promise<DocSearchResult> {
  const categories = query.categoryId !== undefined ? await categoryRows(db) : [];
  const categoryIds = query.categoryId !== undefined ? descendantsOf(categories, query.categoryId) : null;
  const categoryPath = pathOf(categories, query.categoryId);
  const page = { page: query.page, limit: query.limit };
  const offset = (query.page - 1) * query.limit;
  const q = query.q?.trim() ?? '';

  if (!q) {
    let base = db.selectFrom('docs').where('status', '=', 'published').where('deleted_at', 'is', null);
    if (categoryIds) base = base.where('category_id', 'in', categoryIds);
    if (query.validity) base = base.where('validity', '=', query.validity);
    const [{ n }] = (await base.select((eb) => eb.fn.countAll<number | string>().as('n')).execute()) as [
      { n: number | string },
    ];
    const rows = (await base
      .select([...DOC_COLUMNS])
      .orderBy('publish_date', 'desc')
      .orderBy('id', 'desc')
      .limit(inlineLimit(query.limit))
      .offset(offset)
      .execute()) as DocRow[];
    return { results: rows.map(hitOf), page: { total: Number(n), ...page }, totalExact: true, categoryPath };
  }

  const { phrases, terms } = parseQuery(q);
  const empty: DocSearchResult = { results: [], page: { total: 0, ...page }, totalExact: true, categoryPath };
  if (terms.length === 0) return empty;

  // The rarest term drives: its postings are read in ranked order, the others only probed. A
  // query of one term (a two-character word, the most common search) has nothing to choose
  // between, so nothing is counted.
  let [driver, ...others] = terms as [string, ...string[]];
  if (others.length > 0) {
    const frequencies = await Promise.all(
      terms.map(async (term) => {
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from
          (select 1 from doc_terms where term = ${term} limit ${DF_PROBE}) t`.execute(db);
        return { term, df: Number(rows[0]?.n ?? 0) };
      }),
    );
    frequencies.sort((a, b) => a.df - b.df);
    if ((frequencies[0]?.df ?? 0) === 0) return empty;
    [driver, ...others] = frequencies.map((f) => f.term) as [string, ...string[]];
  }

  // Three bounded steps, each a plain indexed query the planner cannot turn into a scan on either
  // dialect: the driver's best postings, the other terms probed for those documents only, then
  // the survivors' rows in docs for status and filters.
  // Each further term costs one probe per driver posting read: fewer postings for longer phrases.
  const scan = Math.min(SCAN_CAP, Math.max(MATCH_CAP, Math.floor((2 * SCAN_CAP) / terms.length)));
  const driverRows = (
    await sql<{ doc_id: number; hits: number }>`select doc_id, hits from doc_terms where term = ${driver}
      order by title desc, hits desc, doc_id desc limit ${scan}`.execute(db)
  ).rows;
  const hitsOf = new Map<number, number>(driverRows.map((r) => [Number(r.doc_id), Number(r.hits)]));
  const ids = [...hitsOf.keys()];
  // The probes are independent: on PostgreSQL they run side by side on the pool's connections.
  const probed = await Promise.all(
    others.map(
      async (term) =>
        (
          await (dialect === 'postgres'
            ? sql<{ doc_id: number; hits: number }>`select doc_id, hits from doc_terms
                where term = ${term} and doc_id = any(${ids}::bigint[])`
            : sql<{ doc_id: number; hits: number }>`select doc_id, hits from doc_terms
                where term = ${term} and doc_id in (${sql.join(ids)})`
          ).execute(db)
        ).rows,
    ),
  );
  for (const rows of probed) {
    const seen = new Map<number, number>(rows.map((r) => [Number(r.doc_id), Number(r.hits)]));
    for (const [id, hits] of hitsOf) {
      const more = seen.get(id);
      if (more === undefined) hitsOf.delete(id);
      else hitsOf.set(id, Math.min(hits, more));
    }
  }
  if (hitsOf.size === 0) return empty;
  let docsQuery = db
    .selectFrom('docs')
    .select(['id', 'title', 'publish_date'])
    .where('id', 'in', [...hitsOf.keys()])
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null);
  if (categoryIds) docsQuery = docsQuery.where('category_id', 'in', categoryIds);
  if (query.validity) docsQuery = docsQuery.where('validity', '=', query.validity);
  const live = new Map(
    ((await docsQuery.execute()) as { id: number; title: string; publish_date: string | null }[]).map((d) => [
      Number(d.id),
      d,
    ]),
  );
  // In the driver's ranked order, so the cap keeps its best.
  const candidates = driverRows
    .map((r) => Number(r.doc_id))
    .filter((id) => live.has(id) && hitsOf.has(id))
    .map((id) => ({
      id,
      doc: live.get(id) as { title: string; publish_date: string | null },
      hits: hitsOf.get(id) as number,
    }));

  // Exact when the driver's postings were all read (fewer than the scan took).
  const totalExact = candidates.length <= MATCH_CAP && driverRows.length < scan;
  // Title hits of the whole phrase first, then how often the rarest-counted term occurs, then newest.
  const ranked = candidates.slice(0, MATCH_CAP).map((c) => {
    const title = normalizeText(c.doc.title);
    return {
      id: c.id,
      inTitle: phrases.every((p) => title.includes(p)) ? 1 : 0,
      hits: c.hits,
      date: c.doc.publish_date ?? '',
    };
  });
  ranked.sort(
    (a, b) =>
      b.inTitle - a.inTitle || b.hits - a.hits || (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id),
  );
  const pageIds = ranked.slice(offset, offset + query.limit).map((r) => r.id);
  if (pageIds.length === 0) return { ...empty, page: { total: ranked.length, ...page }, totalExact };

  // The page's documents and their first pages (for the snippets): one round trip (db/together.ts).
  const [docRows, firstPageRows] = await readTogether(db, [
    db
      .selectFrom('docs')
      .select([...DOC_COLUMNS])
      .where('id', 'in', pageIds),
    snippetPages(db, pageIds, 'first'),
  ]);
  const docs = docRows as unknown as DocRow[];
  const byId = new Map(docs.map((d) => [Number(d.id), d]));
  const hitIn = (pages: readonly PageText[] | undefined) => {
    for (const p of pages ?? []) {
      const snippet = snippetOf(p.content, phrases);
      if (snippet) return { snippet, pageNo: Number(p.page_no) };
    }
    return null;
  };
  const firstPages = pagesByDoc(firstPageRows as PageText[]);
  const inPages = new Map<number, { snippet: string; pageNo: number }>();
  const further: number[] = [];
  for (const id of pageIds) {
    const pages = firstPages.get(id);
    const found = hitIn(pages);
    if (found) inPages.set(id, found);
    // A long document's first pages only: the phrase may be further on.
    else if (Number(pages?.[0]?.pages ?? 0) > SHORT_DOC_PAGES) further.push(id);
  }
  if (further.length > 0) {
    const rest = pagesByDoc((await snippetPages(db, further, 'rest').execute()) as PageText[]);
    for (const id of further) {
      const found = hitIn(rest.get(id));
      if (found) inPages.set(id, found);
    }
  }
  const results: DocHit[] = [];
  for (const id of pageIds) {
    const row = byId.get(id);
    if (!row) continue;
    const hit = hitOf(row);
    // The phrase as typed where it occurs: its first page, else the summary. Where it does not (a
    // title-only hit, or a false match of the bigram index: all bigrams present, never side by
    // side) the summary stays unmarked: marking the single bigrams would show hits the reader did
    // not ask for.
    const inSummary = () => {
      const snippet = row.summary ? snippetOf(row.summary, phrases) : null;
      return snippet ? { snippet, pageNo: null } : null;
    };
    const found = inPages.get(id) ?? inSummary();
    if (found) {
      hit.snippet = found.snippet;
      hit.hitPage = found.pageNo;
    }
    const titleSnippet = snippetOf(row.title, phrases, 1_000);
    if (titleSnippet) hit.titleHtml = titleSnippet;
    results.push(hit);
  }
  return { results, page: { total: ranked.length, ...page }, totalExact, categoryPath };
}

export interface DocPage {
  doc: DocHit & { pageCount: number };
  page: { pageNo: number; content: string };
}

/** One page of a published document, counting the view; null when either does not exist. */
export async function docPage(db: AnyDb, docId: number, pageNo: number): Promise<DocPage | null> {
  const row = (await db
    .selectFrom('docs')
    .select([...DOC_COLUMNS])
    .where('id', '=', docId)
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as DocRow | undefined;
  if (!row) return null;
  const page = (await db
    .selectFrom('doc_pages')
    .select(['page_no', 'content'])
    .where('doc_id', '=', docId)
    .where('page_no', '=', pageNo)
    .orderBy('id')
    .executeTakeFirst()) as { page_no: number; content: string } | undefined;
  if (!page) return null;
  await db.updateTable('docs').set({ views: sql`coalesce(views, 0) + 1` }).where('id', '=', docId).execute();
  // pageCount is the pages' own count: their writes keep it (resource.ts).
  const doc = hitOf(row);
  doc.views += 1;
  return { doc, page: { pageNo: Number(page.page_no), content: page.content } };
}
