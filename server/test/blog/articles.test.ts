/** The public blog: GET /api/public/articles and /api/public/articles/{id} on a real database. */

import { MINUTE } from '@wanxiang/demo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWS_SHOWN_WITHIN_MS } from '../../src/domain/blog/public-routes.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

interface Listed {
  id: number;
  title: string;
  summary: string;
  cover: string | null;
  coverThumb: string | null;
  tags: string[];
  publishedAt: string;
  views: number;
}

describe.each(DB_KINDS)('public articles on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  /** Published ones, oldest first. */
  const published: { id: number; title: string }[] = [];
  let draftId: number;
  let deletedId: number;
  let unpublishedId: number;

  const create = async (title: string, tags: string[], content = `# ${title}\n\n正文。`) => {
    const res = await api.post('/api/admin/articles', { title, summary: `${title}的摘要`, content, tags });
    expect(res.status, res.text).toBe(200);
    return res.body.data.id as number;
  };
  const publish = async (id: number) => {
    t.clock.advance(MINUTE);
    const res = await api.post(`/api/admin/articles/${id}/publish`);
    expect(res.status, res.text).toBe(200);
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    for (let i = 1; i <= 12; i++) {
      const id = await create(`第${i}篇`, i % 3 === 0 ? ['旅行', '杭州'] : ['美食']);
      await publish(id);
      published.push({ id, title: `第${i}篇` });
    }
    draftId = await create('草稿一篇', ['旅行']);
    deletedId = await create('删掉的', ['旅行']);
    await publish(deletedId);
    expect((await api.del(`/api/admin/articles/${deletedId}`)).status).toBe(200);
    unpublishedId = await create('撤回的', ['旅行']);
    await publish(unpublishedId);
    expect((await api.post(`/api/admin/articles/${unpublishedId}/unpublish`)).status).toBe(200);
  });
  afterAll(async () => t?.close());

  it('lists published articles newest first, without login, in the envelope with page', async () => {
    const res = await get('/api/public/articles');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.page).toEqual({ total: 12, page: 1, limit: 10 });
    const results = body.data.results as Listed[];
    expect(results.map((a) => a.title)).toEqual(
      published
        .slice(2)
        .reverse()
        .map((a) => a.title),
    );
    const times = results.map((a) => Date.parse(a.publishedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(results[0]).toEqual({
      id: published[11]?.id,
      title: '第12篇',
      summary: '第12篇的摘要',
      cover: null,
      coverThumb: null,
      tags: ['旅行', '杭州'],
      publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      views: 0,
    });
    expect(results[0]).not.toHaveProperty('content');
  });

  it('hides drafts, unpublished and deleted articles', async () => {
    const all = (await get('/api/public/articles?limit=50')).json().data.results as Listed[];
    const ids = all.map((a) => a.id);
    expect(ids).toHaveLength(12);
    for (const hidden of [draftId, deletedId, unpublishedId]) expect(ids).not.toContain(hidden);
  });

  it('pages: the second page holds the rest, in order', async () => {
    const first = (await get('/api/public/articles?page=1&limit=5')).json().data;
    const second = (await get('/api/public/articles?page=2&limit=5')).json().data;
    const third = (await get('/api/public/articles?page=3&limit=5')).json().data;
    expect(second.page).toEqual({ total: 12, page: 2, limit: 5 });
    expect(third.results).toHaveLength(2);
    const ids = [...first.results, ...second.results, ...third.results].map((a: Listed) => a.id);
    expect(ids).toEqual(published.map((a) => a.id).reverse());
    expect((await get('/api/public/articles?page=9&limit=5')).json().data.results).toEqual([]);
  });

  it('gives the most used tags of published articles with their counts', async () => {
    const { tags } = (await get('/api/public/articles?limit=1')).json().data;
    // 草稿、撤回和删掉的 (all 旅行) do not count.
    expect(tags).toEqual([
      { name: '美食', count: 8 },
      { name: '杭州', count: 4 },
      { name: '旅行', count: 4 },
    ]);
  });

  it('filters by tag', async () => {
    const body = (await get(`/api/public/articles?tag=${encodeURIComponent('杭州')}`)).json().data;
    expect(body.page.total).toBe(4);
    expect(body.results.map((a: Listed) => a.title)).toEqual(['第12篇', '第9篇', '第6篇', '第3篇']);
    // A tag is matched whole: 州 is not 杭州, and LIKE wildcards match literally.
    for (const tag of ['州', '%', '_']) {
      const other = (await get(`/api/public/articles?tag=${encodeURIComponent(tag)}`)).json().data;
      expect(other.page.total, tag).toBe(0);
    }
  });

  it('refuses bad paging with 422 and a Chinese message naming the field', async () => {
    for (const [query, field, label] of [
      ['page=0', 'page', '页码'],
      ['page=abc', 'page', '页码'],
      ['limit=0', 'limit', '每页条数'],
      ['limit=500', 'limit', '每页条数'],
    ] as const) {
      const res = await get(`/api/public/articles?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ success: false, errorCode: 422 });
      expect(res.json().data.fields[field], query).toMatch(new RegExp(`^${label}`));
    }
  });

  it('answers one article with sanitized HTML and counts each GET once', async () => {
    const target = published[4] as { id: number };
    const before = (await api.get(`/api/admin/articles/${target.id}`)).body.data;
    const first = await get(`/api/public/articles/${target.id}`);
    expect(first.statusCode).toBe(200);
    const article = first.json().data;
    expect(article).toMatchObject({ id: target.id, title: '第5篇', views: 1, tags: ['美食'] });
    expect(article.html).toBe('<h2>第5篇</h2>\n<p>正文。</p>\n');
    expect(article).not.toHaveProperty('content');
    // Neighbours in the list's order: newer is 第6篇, older 第4篇.
    expect(article.newer).toEqual({ id: published[5]?.id, title: '第6篇' });
    expect(article.older).toEqual({ id: published[3]?.id, title: '第4篇' });

    await Promise.all(Array.from({ length: 9 }, () => get(`/api/public/articles/${target.id}`)));
    const after = (await get(`/api/public/articles/${target.id}`)).json().data;
    expect(after.views).toBe(11);
    // The list is kept up to a second (views move no version): a second later it shows them.
    t.clock.advance(VIEWS_SHOWN_WITHIN_MS);
    const listed = (await get('/api/public/articles?limit=50')).json().data.results as Listed[];
    expect(listed.find((a) => a.id === target.id)?.views).toBe(11);
    // The admin sees the same count; counting a view does not make the row "changed by someone else".
    const row = (await api.get(`/api/admin/articles/${target.id}`)).body.data;
    expect(row.views).toBe(11);
    expect(row.updatedAt).toBe(before.updatedAt);
  });

  it('answers 404 文章不存在或未发布 for drafts, unpublished, deleted and unknown ids, counting nothing', async () => {
    for (const id of [draftId, unpublishedId, deletedId, 999_999, 'abc', '0', '-1', '1.5']) {
      const res = await get(`/api/public/articles/${id}`);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ success: false, errorCode: 404, message: '文章不存在或未发布' });
    }
    expect((await api.get(`/api/admin/articles/${draftId}`)).body.data.views).toBe(0);
  });

  it('shows an edit at once (the rendered body is never stale)', async () => {
    const target = published[0] as { id: number };
    const row = (await api.get(`/api/admin/articles/${target.id}`)).body.data;
    t.clock.advance(MINUTE);
    const res = await api.patch(`/api/admin/articles/${target.id}`, {
      content: '改过的**正文**',
      updatedAt: row.updatedAt,
    });
    expect(res.status, res.text).toBe(200);
    const html = (await get(`/api/public/articles/${target.id}`)).json().data.html;
    expect(html).toBe('<p>改过的<strong>正文</strong></p>\n');
  });

  it('keeps the list up to a second: a view shows on it a second later, an edit at once', async () => {
    const list = async () =>
      ((await get('/api/public/articles?limit=50')).json().data.results as Listed[]).find(
        (a) => a.id === target.id,
      );
    const target = published[2] as { id: number };
    const before = await list();
    expect((await get(`/api/public/articles/${target.id}`)).json().data.views).toBe((before?.views ?? 0) + 1);
    expect((await list())?.views).toBe(before?.views);
    t.clock.advance(VIEWS_SHOWN_WITHIN_MS);
    expect((await list())?.views).toBe((before?.views ?? 0) + 1);

    const row = (await api.get(`/api/admin/articles/${target.id}`)).body.data;
    const edited = await api.patch(`/api/admin/articles/${target.id}`, {
      summary: '列表里立刻可见的摘要',
      updatedAt: row.updatedAt,
    });
    expect(edited.status, edited.text).toBe(200);
    expect((await list())?.summary).toBe('列表里立刻可见的摘要');
  });

  it('links an article to its neighbours as they are now, a neighbour withdrawn or back at once', async () => {
    const target = published[7] as { id: number };
    const links = async () => {
      const { newer, older } = (await get(`/api/public/articles/${target.id}`)).json().data;
      return { newer: newer?.title, older: older?.title };
    };
    expect(await links()).toEqual({ newer: '第9篇', older: '第7篇' });
    const newer = published[8]?.id as number;
    expect((await api.post(`/api/admin/articles/${newer}/unpublish`)).status).toBe(200);
    expect(await links()).toEqual({ newer: '第10篇', older: '第7篇' });
    // Published again a second later it is the newest (nothing kept has expired: that takes 10 s).
    t.clock.advance(1_000);
    expect((await api.post(`/api/admin/articles/${newer}/publish`)).status).toBe(200);
    const back = (await api.get(`/api/admin/articles/${newer}`)).body.data;
    expect(back.status).toBe('published');
    expect(await links()).toEqual({ newer: '第10篇', older: '第7篇' });
    const first = (await get(`/api/public/articles/${published[11]?.id}`)).json().data;
    expect(first.newer).toEqual({ id: newer, title: '第9篇' });
  });

  it('gives covers from the gallery their thumbnail', async () => {
    const photo = await api.post('/api/admin/photos', {
      title: '封面',
      image: '/api/files/0123456789abcdef0123456789abcdef.jpg',
    });
    expect(photo.status, photo.text).toBe(200);
    await t.app.db
      .updateTable('photos' as never)
      .set({ thumbnail: '/api/files/fedcba9876543210fedcba9876543210.jpg' } as never)
      .execute();
    const id = published[1]?.id as number;
    const row = (await api.get(`/api/admin/articles/${id}`)).body.data;
    await api.patch(`/api/admin/articles/${id}`, {
      cover: '/api/files/0123456789abcdef0123456789abcdef.jpg',
      updatedAt: row.updatedAt,
    });
    const article = (await get(`/api/public/articles/${id}`)).json().data;
    expect(article.cover).toBe('/api/files/0123456789abcdef0123456789abcdef.jpg');
    expect(article.coverThumb).toBe('/api/files/fedcba9876543210fedcba9876543210.jpg');

    // The photo changed in the back office: the cover's thumbnail follows at once (it is kept).
    const current = (await api.get(`/api/admin/photos/${photo.body.data.id}`)).body.data;
    const moved = await api.patch(`/api/admin/photos/${photo.body.data.id}`, {
      image: 'https://img.example.com/other.jpg',
      updatedAt: current.updatedAt,
    });
    expect(moved.status, moved.text).toBe(200);
    const after = (await get(`/api/public/articles/${id}`)).json().data;
    expect(after.coverThumb).toBe('/api/files/0123456789abcdef0123456789abcdef.jpg');
    const listed = (await get('/api/public/articles?limit=50'))
      .json()
      .data.results.find((a: { id: number }) => a.id === id);
    expect(listed.coverThumb).toBe('/api/files/0123456789abcdef0123456789abcdef.jpg');
  });

  it('shows an article published or withdrawn in the total, the tag cloud and the tag filter at once', async () => {
    const list = async (query = '') => (await get(`/api/public/articles?limit=1${query}`)).json().data;
    const tagged = `&tag=${encodeURIComponent('新标签')}`;
    const before = await list();
    expect((await list(tagged)).page.total).toBe(0);
    const id = await create('新发布的', ['新标签']);
    // Published without moving the clock: nothing kept can have expired meanwhile.
    expect((await api.post(`/api/admin/articles/${id}/publish`)).status).toBe(200);
    const after = await list();
    expect(after.page.total).toBe(before.page.total + 1);
    expect(after.tags).toContainEqual({ name: '新标签', count: 1 });
    expect((await list(tagged)).page.total).toBe(1);

    expect((await api.post(`/api/admin/articles/${id}/unpublish`)).status).toBe(200);
    const withdrawn = await list();
    expect(withdrawn.page.total).toBe(before.page.total);
    expect(withdrawn.tags).toEqual(before.tags);
    expect((await list(tagged)).page.total).toBe(0);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await get('/api/openapi.json')).json();
    expect(doc.paths['/api/public/articles'].get.tags).toEqual(['public']);
    expect(doc.paths['/api/public/articles/{id}'].get).toBeDefined();
    expect(doc.paths['/api/public/photos'].get).toBeDefined();
    expect(doc.paths['/api/admin/uploads'].post).toBeDefined();
  });
});
