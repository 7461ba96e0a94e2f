/**
 * The document library's public API on a real database, both dialects: Chinese search by
 * bigrams (1- and 2-character queries, phrases), ranking, filters, the index following admin
 * writes, the search log, and reading a document page by page.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_CAP, SHORT_DOC_PAGES, SNIPPET_FIRST_PAGES } from '../../src/domain/docs/search.js';
import { searchLogOf } from '../../src/domain/docs/search-log.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, tokenOf } from '../helpers/auth.js';
import { type Api, adminApi } from '../resources/helpers.js';

interface NewDoc {
  title: string;
  categoryId: number;
  summary?: string;
  validity?: 'effective' | 'amended' | 'repealed';
  publishDate?: string;
  pages: string[];
  publish?: boolean;
}

async function createDoc(api: Api, doc: NewDoc): Promise<number> {
  const created = await api.post('/api/admin/docs', {
    title: doc.title,
    categoryId: doc.categoryId,
    summary: doc.summary ?? null,
    validity: doc.validity ?? 'effective',
    publishDate: doc.publishDate ?? '2024-01-01',
  });
  expect(created.status, created.text).toBe(200);
  const id = created.body.data.id as number;
  for (const [i, content] of doc.pages.entries()) {
    const page = await api.post('/api/admin/docPages', { docId: id, pageNo: i + 1, content });
    expect(page.status, page.text).toBe(200);
  }
  if (doc.publish !== false) {
    expect((await api.post(`/api/admin/docs/${id}/submit`)).status).toBe(200);
    expect((await api.post(`/api/admin/docs/${id}/publish`)).status).toBe(200);
  }
  return id;
}

describe.each(DB_KINDS)('document library (%s)', (kind) => {
  let t: TestApp;
  let api: Api;
  const ids = { titleHit: 0, contentHits: 0, labour: 0, draft: 0, english: 0 };
  const cat = { law: 0, civil: 0, rules: 0 };

  async function search(
    query: Record<string, string | number | undefined>,
    headers: Record<string, string> = {},
  ) {
    const qs = new URLSearchParams(
      Object.entries(query).flatMap(([k, v]): [string, string][] =>
        v === undefined ? [] : [[k, String(v)]],
      ),
    ).toString();
    const res = await t.app.inject({ method: 'GET', url: `/api/public/docs?${qs}`, headers });
    return { status: res.statusCode, body: res.json() };
  }
  const titlesOf = (body: { data: { results: { title: string }[] } }) =>
    body.data.results.map((r) => r.title);

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    const addCategory = async (name: string, parentId: number | null) => {
      const res = await api.post('/api/admin/docCategories', { name, parentId, sort: 0 });
      expect(res.status, res.text).toBe(200);
      return res.body.data.id as number;
    };
    cat.law = await addCategory('法律', null);
    cat.civil = await addCategory('民商法', cat.law);
    cat.rules = await addCategory('部门规章', null);

    ids.titleHit = await createDoc(api, {
      title: '合同登记办法',
      categoryId: cat.rules,
      publishDate: '2020-05-01',
      pages: ['第一条　为了规范登记工作，制定本办法。'],
    });
    ids.contentHits = await createDoc(api, {
      title: '民事活动若干规定',
      categoryId: cat.civil,
      summary: '规范民事活动。',
      publishDate: '2024-03-01',
      pages: [
        '第一条　当事人订立合同，应当遵循公平原则。合同成立后，当事人应当履行合同。',
        '第二条　<script>alert(1)</script> 违反合同的，应当承担违约责任。劳动者依法享有权利。',
      ],
    });
    ids.labour = await createDoc(api, {
      title: '劳动关系管理条例',
      categoryId: cat.law,
      validity: 'amended',
      publishDate: '2022-07-01',
      pages: ['第一条　用人单位与劳动者应当订立书面劳动合同。', '第二条　本条例自公布之日起施行。'],
    });
    ids.draft = await createDoc(api, {
      title: '合同草稿办法',
      categoryId: cat.rules,
      pages: ['合同的草稿，尚未发布。'],
      publish: false,
    });
    ids.english = await createDoc(api, {
      title: 'GB/T 7714 文献著录规则',
      categoryId: cat.rules,
      pages: ['本标准规定了 Reference 著录的规则。'],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds a 2-character word in the body (regression: 合同), with escaped, highlighted snippets', async () => {
    const { status, body } = await search({ q: '合同' });
    expect(status).toBe(200);
    expect(titlesOf(body)).toEqual(['合同登记办法', '民事活动若干规定', '劳动关系管理条例']);
    expect(body.data.page).toEqual({ total: 3, page: 1, limit: 20 });
    const content = body.data.results.find((r: { id: number }) => r.id === ids.contentHits);
    expect(content.snippet).toContain('<mark>合同</mark>');
    expect(content.hitPage).toBe(1);
    expect(body.data.results[0].titleHtml).toBe('<mark>合同</mark>登记办法');
    expect(content).toMatchObject({
      categoryId: cat.civil,
      validity: 'effective',
      publishDate: '2024-03-01',
    });

    const escaped = await search({ q: '违约' });
    expect(escaped.body.data.results[0].snippet).toContain('alert(1)&lt;/script&gt;');
    expect(escaped.body.data.results[0].snippet).not.toContain('<script>');
    expect(escaped.body.data.results[0].hitPage).toBe(2);
  });

  it('finds a 1-character query (法) and Latin words case-insensitively', async () => {
    const { body } = await search({ q: '法' });
    // 法 in a title (办法) first, then in a body (依法); the labour rules have no 法 at all.
    expect(titlesOf(body)).toEqual(['合同登记办法', '民事活动若干规定']);
    expect(body.data.results[1].snippet).toContain('依<mark>法</mark>享有');
    expect(titlesOf((await search({ q: 'reference' })).body)).toEqual(['GB/T 7714 文献著录规则']);
    expect(titlesOf((await search({ q: 'ＧＢ 7714' })).body)).toEqual(['GB/T 7714 文献著录规则']);
  });

  it('matches a phrase only where its bigrams are all present (劳动合同)', async () => {
    const { body } = await search({ q: '劳动合同' });
    // 民事活动若干规定 has 劳动 and 合同 but never 劳动合同 (no 动合): not a match.
    expect(titlesOf(body)).toEqual(['劳动关系管理条例']);
    expect(body.data.results[0].snippet).toContain('<mark>劳动合同</mark>');
    expect(titlesOf((await search({ q: '劳动' })).body).sort()).toEqual(
      ['劳动关系管理条例', '民事活动若干规定'].sort(),
    );
    expect((await search({ q: '合同劳动' })).body.data.page.total).toBe(0);
    expect((await search({ q: '！？' })).body.data.page.total).toBe(0);
  });

  it('ranks title hits first, then by hit count', async () => {
    const { body } = await search({ q: '合同' });
    // The title hit has 合同 once; the other two only in the body, the one with more hits first.
    expect(titlesOf(body)).toEqual(['合同登记办法', '民事活动若干规定', '劳动关系管理条例']);
  });

  it('filters by category (with its sub-categories) and validity; pages', async () => {
    expect(titlesOf((await search({ q: '合同', categoryId: cat.law })).body).sort()).toEqual(
      ['劳动关系管理条例', '民事活动若干规定'].sort(),
    );
    const civil = await search({ q: '合同', categoryId: cat.civil });
    expect(titlesOf(civil.body)).toEqual(['民事活动若干规定']);
    expect(civil.body.data.categoryPath.map((c: { name: string }) => c.name)).toEqual(['法律', '民商法']);
    expect(titlesOf((await search({ q: '合同', validity: 'amended' })).body)).toEqual(['劳动关系管理条例']);
    const second = await search({ q: '合同', page: 2, limit: 2 });
    expect(titlesOf(second.body)).toEqual(['劳动关系管理条例']);
    expect(second.body.data.page).toEqual({ total: 3, page: 2, limit: 2 });
    // Without q: the list, newest first.
    const list = await search({ categoryId: cat.law });
    expect(titlesOf(list.body)).toEqual(['民事活动若干规定', '劳动关系管理条例']);
    expect(list.body.data.page.total).toBe(2);
  });

  it('shows only published documents, and follows publish/unpublish', async () => {
    expect(titlesOf((await search({ q: '草稿' })).body)).toEqual([]);
    expect((await api.post(`/api/admin/docs/${ids.draft}/submit`)).status).toBe(200);
    expect((await api.post(`/api/admin/docs/${ids.draft}/publish`)).status).toBe(200);
    expect(titlesOf((await search({ q: '草稿' })).body)).toEqual(['合同草稿办法']);
    expect((await api.post(`/api/admin/docs/${ids.draft}/unpublish`)).status).toBe(200);
    expect(titlesOf((await search({ q: '草稿' })).body)).toEqual([]);
  });

  it('keeps the index in step with admin updates and deletes', async () => {
    const pages = await api.get(`/api/admin/docPages?docId=${ids.labour}&sort=pageNo`);
    const first = pages.body.data.results[0];
    expect(
      (
        await api.patch(`/api/admin/docPages/${first.id}`, {
          content: '第一条　用人单位应当依法缴纳工伤保险费。',
        })
      ).status,
    ).toBe(200);
    expect(titlesOf((await search({ q: '劳动合同' })).body)).toEqual([]);
    expect(titlesOf((await search({ q: '工伤保险' })).body)).toEqual(['劳动关系管理条例']);

    expect((await api.patch(`/api/admin/docs/${ids.labour}`, { title: '工伤保险条例' })).status).toBe(200);
    expect(titlesOf((await search({ q: '劳动关系' })).body)).toEqual([]);
    expect((await search({ q: '工伤' })).body.data.results[0].titleHtml).toBe('<mark>工伤</mark>保险条例');

    expect((await api.del(`/api/admin/docPages/${first.id}`)).status).toBe(200);
    expect(titlesOf((await search({ q: '工伤保险费' })).body)).toEqual([]);

    const doomed = await createDoc(api, {
      title: '临时规定',
      categoryId: cat.rules,
      pages: ['独一无二的条款'],
    });
    expect(titlesOf((await search({ q: '独一无二' })).body)).toEqual(['临时规定']);
    expect((await api.del(`/api/admin/docs/${doomed}`)).status).toBe(200);
    expect(titlesOf((await search({ q: '独一无二' })).body)).toEqual([]);
    const left = await t.app.db
      .selectFrom('doc_terms' as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('doc_id' as never, '=', doomed as never)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('logs every search with q: query, user, hits and time', async () => {
    const token = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    await search({ q: '违约责任' }, bearer(token));
    await search({ q: '没有这个词' });
    await search({ categoryId: cat.law });
    // Written in batches (search-log.ts): what is kept is written out before the table is read.
    await searchLogOf(t.app.db)?.flush();
    const logs = (await t.app.db
      .selectFrom('doc_search_logs' as never)
      .select(['q', 'user_id', 'hits', 'took_ms'] as never[])
      .orderBy('id' as never, 'desc')
      .limit(2)
      .execute()) as { q: string; user_id: number | null; hits: number; took_ms: number }[];
    const editor = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'editor')
      .executeTakeFirstOrThrow();
    expect(logs.map((l) => [l.q, l.user_id === null ? null : Number(l.user_id), Number(l.hits)])).toEqual([
      ['没有这个词', null, 0],
      ['违约责任', editor.id, 1],
    ]);
    expect(Number(logs[1]?.took_ms)).toBeGreaterThanOrEqual(0);
    const admin = await api.get('/api/admin/docSearchLogs?sort=-id&limit=1');
    expect(admin.body.data.results[0].q).toBe('没有这个词');
    // The same search again (answered from what was kept): logged again, with its hits.
    const again = (await search({ q: '违约责任' }, bearer(token))).body.data;
    expect(again.page.total).toBe(1);
    await searchLogOf(t.app.db)?.flush();
    const last = (await api.get('/api/admin/docSearchLogs?sort=-id&limit=1')).body.data.results[0];
    expect(last).toMatchObject({ q: '违约责任', userId: editor.id, hits: 1 });
  });

  /** The search log's entries for searches of `q`, oldest first. */
  async function loggedOf(q: string): Promise<{ id: number; q: string; hits: number }[]> {
    const rows = (await t.app.db
      .selectFrom('doc_search_logs' as never)
      .select(['id', 'q', 'hits'] as never[])
      .where('q' as never, 'like', `${q}%` as never)
      .orderBy('id' as never)
      .execute()) as { id: number; q: string; hits: number }[];
    return rows.map((r) => ({ id: Number(r.id), q: r.q, hits: Number(r.hits) }));
  }

  it('writes the log in batches: in the order answered, by the timer alone, and again after a refusal', async () => {
    const searchLog = searchLogOf(t.app.db);
    expect(searchLog).toBeDefined();
    // Several at once, and the same search again (answered from what was kept): all written, in order.
    const words = ['批量一', '批量二', '批量三', '批量一'];
    for (const q of words) expect((await search({ q })).status).toBe(200);
    await searchLog?.flush();
    const written = await loggedOf('批量');
    expect(written.map((r) => r.q)).toEqual(words);
    expect(written.map((r) => r.id)).toEqual([...written.map((r) => r.id)].sort((a, b) => a - b));

    // Nobody flushes: the timer writes it within a second.
    await search({ q: '定时写入' });
    await expect.poll(async () => (await loggedOf('定时写入')).length, { timeout: 10_000 }).toBe(1);

    // The database refuses the batch (the table gone for a moment): the entries are kept, the
    // failure logged, and they are written once the table is back.
    await sql`alter table doc_search_logs rename to doc_search_logs_away`.execute(t.app.db);
    try {
      // The visitor is answered all the same: the log is the server's, not the search's.
      expect((await search({ q: '暂存一' })).status).toBe(200);
      expect((await search({ q: '暂存二' })).status).toBe(200);
      await searchLog?.flush();
      expect(t.logs.some((line) => line.includes('writing the search log failed'))).toBe(true);
    } finally {
      await sql`alter table doc_search_logs_away rename to doc_search_logs`.execute(t.app.db);
    }
    await searchLog?.flush();
    expect((await loggedOf('暂存')).map((r) => r.q)).toEqual(['暂存一', '暂存二']);
  });

  it('writes what the log still keeps at a clean stop', async () => {
    // A second app on the same database (kept on close); its timer has not run when it stops.
    const other = await startTestApp(kind, { db: t.db });
    const res = await other.app.inject({
      method: 'GET',
      url: `/api/public/docs?q=${encodeURIComponent('停机前')}`,
    });
    expect(res.statusCode).toBe(200);
    await other.close();
    expect((await loggedOf('停机前')).map((r) => r.q)).toEqual(['停机前']);
  });

  it('answers 422 with a Chinese message for bad parameters', async () => {
    for (const query of [
      { page: 0 },
      { limit: 500 },
      { categoryId: 'abc' },
      { validity: 'valid' },
      { q: '法'.repeat(101) },
    ]) {
      const { status, body } = await search(query);
      expect(status, JSON.stringify(query)).toBe(422);
      expect(body.success).toBe(false);
      expect(body.message).toMatch(/[\u4e00-\u9fff]/);
      expect(Object.keys(body.data.fields)).toEqual(Object.keys(query));
    }
  });

  it('gives the category tree with published counts, sub-categories included', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/doc/categories' });
    const tree = res.json().data as {
      name: string;
      count: number;
      ownCount: number;
      children: { name: string; count: number }[];
    }[];
    const law = tree.find((c) => c.name === '法律');
    expect(law).toMatchObject({ count: 2, ownCount: 1 });
    expect(law?.children).toMatchObject([{ name: '民商法', count: 1 }]);
    // 合同登记办法 and the GB/T standard; the draft and the deleted one do not count.
    expect(tree.find((c) => c.name === '部门规章')?.count).toBe(2);
  });

  it('says the total is exact only when every posting of the searched word was read', async () => {
    // A word found in one document: all of its postings read.
    const one = await search({ q: '登记' });
    expect(one.body.data.totalExact).toBe(true);
    // Postings of two words written straight into the index (documents that do not exist, so
    // nothing is shown either way): one with as many postings as a search reads, one with fewer.
    const postings = (term: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ term, title: 0, hits: 1, doc_id: 90_000_000 + i }));
    // biome-ignore lint/suspicious/noExplicitAny: the index's own table, not in the typed schema
    const db = t.app.db as Kysely<any>;
    await db.insertInto('doc_terms').values(postings('龘靐', SCAN_CAP)).execute();
    await db.insertInto('doc_terms').values(postings('靐龘', 3)).execute();
    const many = await search({ q: '龘靐' });
    expect(many.status).toBe(200);
    expect(many.body.data).toMatchObject({ results: [], totalExact: false });
    const few = await search({ q: '靐龘' });
    expect(few.body.data).toMatchObject({ results: [], totalExact: true });
    await db.deleteFrom('doc_terms').where('term', 'in', ['龘靐', '靐龘']).execute();
  });

  it('serves a page of a document to signed-in readers only, and pages through', async () => {
    const url = `/api/docs/${ids.contentHits}/pages/1`;
    const anonymous = await t.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    const token = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    const first = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(first.statusCode).toBe(200);
    const body = first.json().data;
    expect(body.doc).toMatchObject({ id: ids.contentHits, title: '民事活动若干规定', pageCount: 2 });
    expect(body.page).toEqual({ pageNo: 1, content: expect.stringContaining('当事人订立合同') });
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/docs/${ids.contentHits}/pages/2`,
      headers: bearer(token),
    });
    expect(second.json().data.page.content).toContain('违约责任');
    expect(second.json().data.doc.views).toBe(body.doc.views + 1);
    const beyond = await t.app.inject({
      method: 'GET',
      url: `/api/docs/${ids.contentHits}/pages/3`,
      headers: bearer(token),
    });
    expect(beyond.statusCode).toBe(404);
    const draft = await t.app.inject({
      method: 'GET',
      url: `/api/docs/${ids.draft}/pages/1`,
      headers: bearer(token),
    });
    expect(draft.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: `/api/docs/x/pages/1`, headers: bearer(token) });
    expect(bad.statusCode).toBe(422);
  });

  it('marks the first page holding the phrase, however far into a long document, else the summary', async () => {
    // Longer than the documents whose pages are read whole: the phrase first on the page after
    // the ones read with the documents, then on the last.
    const filler = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => `第${from + i}页　总则与适用范围。`);
    const pages = [
      ...filler(SNIPPET_FIRST_PAGES, 1),
      '当事人可以申请调解。',
      ...filler(SHORT_DOC_PAGES - SNIPPET_FIRST_PAGES, SNIPPET_FIRST_PAGES + 2),
      '调解不成的，继续仲裁。',
    ];
    expect(pages.length).toBeGreaterThan(SHORT_DOC_PAGES);
    const long = await createDoc(api, {
      title: '商事仲裁规则',
      categoryId: cat.rules,
      summary: '关于商事仲裁的规定。',
      pages,
    });
    const later = (await search({ q: '调解' })).body.data.results;
    expect(later.map((r: { id: number; hitPage: number }) => [r.id, r.hitPage])).toEqual([
      [long, SNIPPET_FIRST_PAGES + 1],
    ]);
    expect(later[0].snippet).toContain('申请<mark>调解</mark>');
    const last = (await search({ q: '继续' })).body.data.results;
    expect(last[0]).toMatchObject({ id: long, hitPage: pages.length });
    // On a first page.
    expect((await search({ q: '总则' })).body.data.results[0]).toMatchObject({ id: long, hitPage: 1 });
    // A short document's pages all come with it: its phrase on the last is found as well.
    const shortPages = [...filler(SNIPPET_FIRST_PAGES + 1, 1), '双方可以自行和解。'];
    expect(shortPages.length).toBeLessThanOrEqual(SHORT_DOC_PAGES);
    const short = await createDoc(api, { title: '和解程序指引', categoryId: cat.rules, pages: shortPages });
    const settled = (await search({ q: '自行' })).body.data.results;
    expect(settled[0]).toMatchObject({ id: short, hitPage: shortPages.length });
    // In the title and the summary only: the summary marked, no page.
    const summary = (await search({ q: '商事' })).body.data.results[0];
    expect(summary).toMatchObject({ id: long, hitPage: null });
    expect(summary.snippet).toBe('关于<mark>商事</mark>仲裁的规定。');
  });
});
