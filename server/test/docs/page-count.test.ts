/**
 * A document's page count is its pages: kept by the pages' writes in their transaction (admin
 * form, library list, search results and reader agree), and a page moved to another document
 * leaves the first one's count and search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/db/migrate.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

describe.each(DB_KINDS)('a document’s page count (%s)', (kind) => {
  let t: TestApp;
  let api: Api;
  let category: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    const created = await api.post('/api/admin/docCategories', { name: '页数测试', sort: 1 });
    expect(created.status, created.text).toBe(200);
    category = created.body.data.id;
  });
  afterAll(async () => t?.close());

  async function newDoc(title: string): Promise<number> {
    const created = await api.post('/api/admin/docs', {
      title,
      categoryId: category,
      publishDate: '2024-01-01',
    });
    expect(created.status, created.text).toBe(200);
    return created.body.data.id;
  }
  async function addPage(docId: number, pageNo: number, content: string): Promise<number> {
    const page = await api.post('/api/admin/docPages', { docId, pageNo, content });
    expect(page.status, page.text).toBe(200);
    return page.body.data.id;
  }
  const adminCount = async (id: number) => (await api.get(`/api/admin/docs/${id}`)).body.data.pageCount;
  const publicHits = async (query: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/public/docs?${query}` })).json().data.results as {
      id: number;
      pageCount: number;
    }[];

  it('counts the pages as they are added, deleted and moved', async () => {
    const statute = await newDoc('页数条例');
    const other = await newDoc('另一份规定');
    expect(await adminCount(statute)).toBe(0);
    await addPage(statute, 1, '第一条 为了规范页数，制定本条例。');
    await addPage(statute, 2, '第二条 本条例适用于文库。');
    const third = await addPage(statute, 3, '第三条 鹦鹉螺条款只在这一页。');
    expect(await adminCount(statute)).toBe(3);

    for (const id of [statute, other]) {
      expect((await api.post(`/api/admin/docs/${id}/submit`)).status).toBe(200);
      expect((await api.post(`/api/admin/docs/${id}/publish`)).status).toBe(200);
    }
    const listed = await publicHits(`categoryId=${category}`);
    expect(listed.find((d) => d.id === statute)?.pageCount).toBe(3);
    const reader = await t.app.inject({
      method: 'GET',
      url: `/api/docs/${statute}/pages/3`,
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(reader.json().data.doc.pageCount).toBe(3);
    expect((await publicHits('q=鹦鹉螺')).map((d) => [d.id, d.pageCount])).toEqual([[statute, 3]]);

    // Moved to the other document: both counts, and the word is found in the other one only.
    const moved = await api.patch(`/api/admin/docPages/${third}`, { docId: other, pageNo: 1 });
    expect(moved.status, moved.text).toBe(200);
    expect([await adminCount(statute), await adminCount(other)]).toEqual([2, 1]);
    expect((await publicHits('q=鹦鹉螺')).map((d) => [d.id, d.pageCount])).toEqual([[other, 1]]);

    const first = (await api.get(`/api/admin/docPages?docId=${statute}&sort=pageNo`)).body.data.results[0].id;
    expect((await api.del(`/api/admin/docPages/${first}`)).status).toBe(200);
    expect(await adminCount(statute)).toBe(1);
    expect((await publicHits(`categoryId=${category}`)).find((d) => d.id === statute)?.pageCount).toBe(1);
  });

  it('refuses a second page of the same number, added or moved there, and changes nothing', async () => {
    const doc = await newDoc('页码唯一');
    await addPage(doc, 1, '第一页');
    const second = await addPage(doc, 2, '第二页');
    const again = await api.post('/api/admin/docPages', { docId: doc, pageNo: 1, content: '又一个第一页' });
    expect(again.status, again.text).toBe(409);
    expect(again.body.message).toBe('第 1 页已存在');
    const renumbered = await api.patch(`/api/admin/docPages/${second}`, { pageNo: 1 });
    expect(renumbered.status, renumbered.text).toBe(409);
    expect(await adminCount(doc)).toBe(2);
    const pages = (await api.get(`/api/admin/docPages?docId=${doc}&sort=pageNo`)).body.data.results;
    expect(pages.map((p: { pageNo: number }) => p.pageNo)).toEqual([1, 2]);
    // Its own number again is no conflict.
    expect(
      (await api.patch(`/api/admin/docPages/${second}`, { pageNo: 2, content: '改过的第二页' })).status,
    ).toBe(200);
  });

  it('two editors adding the same page at once: one is stored, the other answered 409', async () => {
    const doc = await newDoc('同时加页');
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8];
    // Each number added twice at the same instant, every request in flight together: on
    // PostgreSQL their transactions overlap, each checking before the other has committed.
    const answers = await Promise.all(
      numbers.flatMap((pageNo) =>
        ['甲', '乙'].map((editor) =>
          api.post('/api/admin/docPages', { docId: doc, pageNo, content: `${editor}加的第 ${pageNo} 页` }),
        ),
      ),
    );
    for (const [i, pageNo] of numbers.entries()) {
      const pair = answers.slice(2 * i, 2 * i + 2).map((a) => a.status);
      expect(pair.sort(), `page ${pageNo}`).toEqual([200, 409]);
    }
    const pages = (await api.get(`/api/admin/docPages?docId=${doc}&sort=pageNo&limit=50`)).body.data.results;
    expect(pages.map((p: { pageNo: number }) => p.pageNo)).toEqual(numbers);
    expect(await adminCount(doc)).toBe(numbers.length);
  });

  it('migration 0023 sets the counts nothing kept before', async () => {
    const doc = await newDoc('迁移前的文档');
    await addPage(doc, 1, '一页');
    await addPage(doc, 2, '两页');
    // As a document written before the counts were kept: 0 pages, or an editor's stale number.
    // biome-ignore lint/suspicious/noExplicitAny: the table as the migration sees it
    const db = t.app.db as any;
    await db.updateTable('docs').set({ page_count: 0 }).where('id', '=', doc).execute();
    expect(await adminCount(doc)).toBe(0);
    await MIGRATIONS['0023_doc_page_counts']?.up(db, kind);
    expect(await adminCount(doc)).toBe(2);
  });
});
