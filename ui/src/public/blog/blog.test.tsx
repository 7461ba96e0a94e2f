/** The blog home, an article and the gallery, through the real routes against msw. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server } from '../../test/harness';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const article = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: `第${id}篇文章`,
  summary: `第${id}篇的摘要`,
  cover: id % 2 ? `/api/files/${'a'.repeat(32)}.jpg` : null,
  coverThumb: id % 2 ? `/api/files/${'b'.repeat(32)}.webp` : null,
  tags: id % 2 ? ['杭州', '旅行'] : ['美食'],
  publishedAt: '2024-05-01T16:30:00.000Z',
  views: 1234,
  ...extra,
});

function articlesApi(total = 23) {
  const calls: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/api/public/articles`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.push(query);
      const page = Number(query.get('page') ?? 1);
      const limit = Number(query.get('limit') ?? 10);
      const tag = query.get('tag');
      const count = tag ? 2 : total;
      const ids = Array.from({ length: count }, (_, i) => count - i).slice((page - 1) * limit, page * limit);
      return HttpResponse.json({
        success: true,
        data: {
          results: ids.map((id) => article(id)),
          page: { total: count, page, limit },
          tags: [
            { name: '杭州', count: 12 },
            { name: '美食', count: 11 },
          ],
        },
      });
    }),
  );
  return calls;
}

describe('blog home /', () => {
  it('lists articles with cover, date in China time, views and tags, and pages by URL', async () => {
    const calls = articlesApi();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: '博客' })).toBeTruthy();
    const first = await screen.findByRole('link', { name: '第23篇文章' });
    expect(first.getAttribute('href')).toBe('/article/23');
    const card = first.closest('article') as HTMLElement;
    // 16:30 UTC is the next day in Shanghai.
    expect(within(card).getByText('2024-05-02')).toBeTruthy();
    expect(within(card).getByText('1,234 次阅读')).toBeTruthy();
    const cover = card.querySelector('img') as HTMLImageElement;
    expect(cover.getAttribute('src')).toBe(`/api/files/${'b'.repeat(32)}.webp`);
    // The first covers load at once (the largest paint); those further down lazily.
    expect(cover.getAttribute('loading')).toBe('eager');
    const lower = screen.getByRole('link', { name: '第19篇文章' }).closest('article') as HTMLElement;
    expect(lower.querySelector('img')?.getAttribute('loading')).toBe('lazy');
    expect(cover.getAttribute('width')).toBeTruthy();
    expect(within(card).getByRole('link', { name: '#杭州' }).getAttribute('href')).toBe(
      `/?tag=${encodeURIComponent('杭州')}`,
    );
    expect(calls[0]?.get('page')).toBe('1');
    expect(calls[0]?.get('limit')).toBe('10');

    const pager = screen.getByRole('navigation', { name: '分页' });
    expect(within(pager).getByText('共 23 篇')).toBeTruthy();
    fireEvent.click(within(pager).getByRole('link', { name: '下一页' }));
    await screen.findByRole('link', { name: '第13篇文章' });
    expect(router.state.location.search).toBe('?page=2');
    expect(calls.at(-1)?.get('page')).toBe('2');
    expect(
      within(screen.getByRole('navigation', { name: '分页' }))
        .getByRole('link', { name: '第 2 页' })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it('filters by a clicked tag, shows it, and clears it', async () => {
    const calls = articlesApi();
    const { router } = renderApp('/?page=2');
    await screen.findByRole('link', { name: '第13篇文章' });
    fireEvent.click(screen.getByRole('link', { name: '#杭州 12 篇' }));
    await screen.findByText(/，共 2 篇/);
    expect(router.state.location.search).toBe(`?tag=${encodeURIComponent('杭州')}`);
    expect(calls.at(-1)?.get('tag')).toBe('杭州');
    expect(calls.at(-1)?.get('page')).toBe('1');
    fireEvent.click(screen.getByRole('link', { name: '查看全部' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(calls.at(-1)?.has('tag')).toBe(false);
  });

  it('says so when there is nothing, and offers a retry after a failure', async () => {
    articlesApi(0);
    renderApp('/');
    expect(await screen.findByText('还没有发布文章，敬请期待。')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '分页' })).toBeNull();

    server.use(http.get(`${API}/api/public/articles`, () => HttpResponse.error()));
    renderApp('/?page=3');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('文章加载失败');
    articlesApi();
    fireEvent.click(within(alert).getByRole('button', { name: '重新加载' }));
    expect(await screen.findByRole('link', { name: '第3篇文章' })).toBeTruthy();
  });
});

describe('article /article/:id', () => {
  it('shows the server-rendered body, meta and neighbours, and titles the tab after the article', async () => {
    server.use(
      http.get(`${API}/api/public/articles/7`, () =>
        HttpResponse.json({
          success: true,
          data: {
            ...article(7),
            html: '<h3>小标题</h3>\n<p>正文<strong>加粗</strong></p>\n',
            updatedAt: '2024-05-02T00:00:00.000Z',
            newer: { id: 8, title: '第8篇文章' },
            older: null,
          },
        }),
      ),
    );
    renderApp('/article/7');
    expect(await screen.findByRole('heading', { level: 1, name: '第7篇文章' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: '小标题' })).toBeTruthy();
    expect(screen.getByText('加粗').tagName).toBe('STRONG');
    expect(screen.getByText('1,234 次阅读')).toBeTruthy();
    expect(screen.getByRole('img', { name: '第7篇文章的封面' }).getAttribute('src')).toBe(
      `/api/files/${'a'.repeat(32)}.jpg`,
    );
    expect(screen.getByRole('link', { name: /上一篇\s*第8篇文章/ }).getAttribute('href')).toBe('/article/8');
    await waitFor(() => expect(document.title).toBe('第7篇文章 - 万象测试站'));
  });

  it('answers a draft or a missing article with 文章不存在或未发布', async () => {
    server.use(
      http.get(`${API}/api/public/articles/99`, () =>
        HttpResponse.json({ success: false, errorCode: 404, message: '文章不存在或未发布' }, { status: 404 }),
      ),
    );
    renderApp('/article/99');
    expect((await screen.findByRole('alert')).textContent).toBe('文章不存在或未发布');
    expect(screen.getByRole('heading', { level: 1, name: '文章' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '回到博客首页' }).getAttribute('href')).toBe('/');
  });
});

describe('gallery /photo', () => {
  const photo = (id: number, album = '西湖四季') => ({
    id,
    title: `照片${id}`,
    album,
    tags: [],
    takenAt: '2024-01-01T02:00:00.000Z',
    thumbUrl: `/api/files/${String(id).padStart(32, '0')}.webp`,
    url: `/api/files/${String(id).padStart(32, '1')}.jpg`,
    width: 1200,
    height: 800,
  });

  it('shows lazy thumbnails with their size, loads more, filters by album and previews full size', async () => {
    const calls: URLSearchParams[] = [];
    server.use(
      http.get(`${API}/api/public/photos`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        calls.push(query);
        const page = Number(query.get('page'));
        const album = query.get('album');
        const total = album ? 1 : 30;
        const ids = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * 24, page * 24);
        return HttpResponse.json({
          success: true,
          data: {
            results: ids.map((id) => photo(id, album ?? '西湖四季')),
            page: { total, page, limit: 24 },
            albums: [
              { name: '西湖四季', count: 20 },
              { name: '山野', count: 10 },
            ],
          },
        });
      }),
    );
    const { router } = renderApp('/photo');
    expect(await screen.findByRole('heading', { level: 1, name: '相册' })).toBeTruthy();
    const img = (await screen.findByRole('img', { name: '照片12' })) as HTMLImageElement;
    expect(img.getAttribute('loading')).toBe('lazy');
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['480', '320']);
    expect(screen.getByRole('img', { name: '照片1' }).getAttribute('loading')).toBe('eager');
    expect(screen.getAllByRole('button', { name: /^照片\d+$/ })).toHaveLength(24);

    fireEvent.click(screen.getByRole('button', { name: '加载更多' }));
    await screen.findByRole('img', { name: '照片30' });
    expect(calls.at(-1)?.get('page')).toBe('2');
    expect(screen.getByText('已显示全部 30 张')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '照片3' }));
    const dialog = await screen.findByRole('dialog', { name: '照片3' });
    const full = within(dialog).getByRole('img', { name: '照片3' });
    expect(full.getAttribute('src')).toBe(photo(3).url);
    fireEvent.click(within(dialog).getByRole('button', { name: '下一张' }));
    expect(within(screen.getByRole('dialog')).getByRole('img', { name: '照片4' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('link', { name: '山野 10 张' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^照片\d+$/ })).toHaveLength(1));
    expect(router.state.location.search).toBe(`?album=${encodeURIComponent('山野')}`);
    expect(calls.at(-1)?.get('album')).toBe('山野');
  });
});
