/**
 * The public blog and gallery in Chromium against the built product with the demo content: the
 * home lists articles newest first and pages, an article counts its views, an article full of XSS
 * payloads stays inert, the gallery previews, and a photo uploaded on the admin screen shows on
 * /photo. Screenshots at 1280 and 375 px.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi } from './admin-api';
import {
  apiSignIn,
  browserAvailable,
  openCreateForm,
  openPage,
  type Session,
  screenshot,
  sidewaysScroll,
  startSession,
  TEST_ADMIN_PASSWORD,
  TEST_DEMO_PASSWORD,
  useToken,
} from './harness';

interface Listed {
  id: number;
  title: string;
  publishedAt: string;
  views: number;
  tags: string[];
}

/** A loaded article card; while the list loads the same class draws the skeleton placeholders. */
const POST_CARD = '.wx-post-card:not(.wx-skeleton)';
const cardTitles = (page: Page) => page.locator(`${POST_CARD} .wx-post-title a`).allTextContents();

/** Every image on screen has loaded (lazy ones below the fold are not asked). */
const imagesLoaded = (page: Page, selector: string) =>
  page.waitForFunction(
    (s) =>
      [...document.querySelectorAll<HTMLImageElement>(s)]
        .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
        .every((img) => img.complete && img.naturalWidth > 0),
    selector,
  );

const XSS_MARKDOWN = [
  '这篇文章里藏着各种攻击代码，页面必须安然无恙。',
  '<script>alert("script")</script>',
  '<img src=x onerror=alert("onerror")>',
  '<svg onload=alert("svg")><circle r=10 /></svg>',
  '<svg><script>alert("svg-script")</script></svg>',
  '<a href="javascript:alert(\'href\')">危险链接</a>',
  '<a href="&#106;avascript:alert(\'entity\')">实体编码链接</a>',
  '<iframe src="javascript:alert(\'iframe\')"></iframe>',
  '<object data="javascript:alert(\'object\')"></object>',
  '<details open ontoggle=alert("toggle")><summary>展开</summary>内容</details>',
  '<p style="background:url(javascript:alert(\'style\'))">带样式的段落</p>',
  '<math><mi xlink:href="javascript:alert(\'math\')">数学</mi></math>',
  '[Markdown 链接](javascript:alert("md"))',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data 链接</a>',
  '<input autofocus onfocus=alert("focus")>',
  '<body onload=alert("body")>',
  '结尾的一段话。',
].join('\n\n');

describe.runIf(browserAvailable())('blog and gallery (e2e)', () => {
  let session: Session;
  let token: string;
  let api: AdminApi;
  beforeAll(async () => {
    session = await startSession({ WANXIANG_DEMO: 'on' });
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    api = adminApi(session.server.url, token);
  });
  afterAll(async () => {
    await session?.stop();
  });

  const publicApi = async <T>(path: string): Promise<T> => {
    const body = (await (await fetch(`${session.server.url}${path}`)).json()) as { data: T };
    return body.data;
  };

  it('lists the demo articles newest first, pages by URL and filters by tag', async () => {
    const all = await publicApi<{ results: Listed[]; page: { total: number } }>(
      '/api/public/articles?limit=50',
    );
    expect(all.page.total).toBeGreaterThan(10);
    const times = all.results.map((a) => Date.parse(a.publishedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const { page, errors, close } = await openPage(session);
    await page.goto('/');
    await page.getByRole('heading', { name: '博客', exact: true }).waitFor();
    await page.locator(POST_CARD).first().waitFor();
    expect(await cardTitles(page)).toEqual(all.results.slice(0, 10).map((a) => a.title));
    await imagesLoaded(page, '.wx-post-cover img');
    await screenshot(page, 'blog-home-1280');

    await page.getByRole('navigation', { name: '分页' }).getByRole('link', { name: '下一页' }).click();
    await page.waitForURL((url) => url.search === '?page=2');
    await page.locator('.wx-post-card', { hasText: all.results[10]?.title }).waitFor();
    expect(await cardTitles(page)).toEqual(all.results.slice(10, 20).map((a) => a.title));

    // A tag from the cloud: only articles with it, and the URL says which.
    const tagLink = page.locator('.wx-tag-cloud .wx-tag').first();
    const label = (await tagLink.textContent()) ?? '';
    const tag = label.replace(/^#/, '').replace(/\s*\d+\s*篇$/, '');
    await tagLink.click();
    await page.waitForURL((url) => url.searchParams.get('tag') === tag);
    await page.locator('.wx-blog-filter', { hasText: `#${tag}` }).waitFor();
    const tagged = all.results.filter((a) => a.tags.includes(tag)).slice(0, 10);
    await page.waitForFunction(([s, n]) => document.querySelectorAll(s as string).length === n, [
      POST_CARD,
      tagged.length,
    ] as const);
    expect(await cardTitles(page)).toEqual(tagged.map((a) => a.title));
    expect(errors).toEqual([]);
    await close();

    const narrow = await openPage(session, { width: 375, height: 812 });
    await narrow.page.goto('/');
    await narrow.page.locator(POST_CARD).first().waitFor();
    await imagesLoaded(narrow.page, '.wx-post-cover img');
    expect(await sidewaysScroll(narrow.page)).toBe(0);
    await screenshot(narrow.page, 'blog-home-375');
    expect(narrow.errors).toEqual([]);
    await narrow.close();
  });

  it('opens an article from the home; each visit counts one view; the tab is titled after it', async () => {
    const [first] = (await publicApi<{ results: Listed[] }>('/api/public/articles?limit=1')).results;
    if (!first) throw new Error('no demo article');
    const { page, errors, close } = await openPage(session);
    await page.goto('/');
    await page.locator('.wx-post-card .wx-post-title a').first().click();
    await page.waitForURL((url) => url.pathname === `/article/${first.id}`);
    const title = page.getByRole('heading', { level: 1, name: first.title });
    await title.waitFor();
    const meta = page.locator('.wx-article-head .wx-post-meta');
    await expect
      .poll(() => meta.textContent())
      .toContain(`${(first.views + 1).toLocaleString('zh-CN')} 次阅读`);
    await expect.poll(() => page.title()).toContain(first.title);
    expect(await page.locator('.wx-article-body h2').count()).toBeGreaterThan(0);
    await imagesLoaded(page, '.wx-article-cover img');
    await screenshot(page, 'article-1280');

    await page.reload();
    await title.waitFor();
    await expect
      .poll(() => meta.textContent())
      .toContain(`${(first.views + 2).toLocaleString('zh-CN')} 次阅读`);
    expect(errors).toEqual([]);
    await close();

    const narrow = await openPage(session, { width: 375, height: 812 });
    await narrow.page.goto(`/article/${first.id}`);
    await narrow.page.getByRole('heading', { level: 1, name: first.title }).waitFor();
    await imagesLoaded(narrow.page, '.wx-article-cover img');
    expect(await sidewaysScroll(narrow.page)).toBe(0);
    await screenshot(narrow.page, 'article-375');
    await screenshot(narrow.page, 'article-375-full', { fullPage: true });
    await narrow.close();
    // The list shows views at most a second behind the article's page (public-routes.ts).
    await expect
      .poll(
        async () =>
          (await publicApi<{ results: Listed[] }>('/api/public/articles?limit=1')).results[0]?.views,
        {
          timeout: 5_000,
        },
      )
      .toBe(first.views + 3);
  });

  it('shows a draft or missing article as 文章不存在或未发布', async () => {
    const draft = await api.create('articles', { title: '尚未发布的草稿', content: '草稿正文' });
    const { page, close } = await openPage(session);
    for (const path of [`/article/${draft.id}`, '/article/999999']) {
      await page.goto(path);
      await page.getByRole('alert').getByText('文章不存在或未发布').waitFor();
    }
    await page.getByRole('link', { name: '回到博客首页' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await close();
  });

  it('renders an article full of XSS payloads inert: no dialog, no script, no handler, no script URL', async () => {
    const article = await api.create('articles', {
      title: '安全测试：XSS 载荷合集',
      summary: '检验正文净化',
      content: XSS_MARKDOWN,
      tags: ['安全'],
    });
    await api.action('articles', article.id, 'publish');
    const { page, errors, close } = await openPage(session);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`/article/${article.id}`);
    await page.getByRole('heading', { level: 1, name: '安全测试：XSS 载荷合集' }).waitFor();
    await page.locator('.wx-article-body').getByText('结尾的一段话。').waitFor();
    await page.waitForLoadState('networkidle');
    // Every link left is clicked too: none may run anything.
    for (const link of await page.locator('.wx-article-body a').all())
      await link.click({ trial: false, force: true });
    const found = await page.evaluate(() => {
      const body = document.querySelector('.wx-article-body');
      const all = [...(body?.querySelectorAll('*') ?? [])];
      return {
        scripts: document.querySelectorAll('.wx-article-body script, script:not([src])').length,
        handlers: all.flatMap((el) => el.getAttributeNames().filter((n) => n.toLowerCase().startsWith('on'))),
        styles: all.filter((el) => el.hasAttribute('style')).length,
        embeds: body?.querySelectorAll('iframe, object, embed, svg, math, input').length ?? -1,
        urls: all
          .flatMap((el) => ['href', 'src', 'action', 'data'].map((a) => el.getAttribute(a) ?? ''))
          .filter((u) => /^\s*(javascript|vbscript|data:text)/i.test(u)),
      };
    });
    expect(found).toEqual({ scripts: 0, handlers: [], styles: 0, embeds: 0, urls: [] });
    expect(dialogs).toEqual([]);
    expect(page.url()).toContain(`/article/${article.id}`);
    await screenshot(page, 'article-xss');
    // The CSP report of a blocked inline script would show here; nothing was even attempted.
    expect(errors.filter((e) => /Content Security Policy|alert/i.test(e))).toEqual([]);
    await close();
  });

  it('shows the gallery as lazy thumbnails and previews a photo full size', async () => {
    const data = await publicApi<{ results: { title: string; url: string }[]; page: { total: number } }>(
      '/api/public/photos',
    );
    expect(data.page.total).toBeGreaterThan(0);
    const { page, errors, close } = await openPage(session);
    await page.goto('/photo');
    await page.getByRole('heading', { name: '相册', exact: true }).waitFor();
    const thumbs = page.locator('.wx-gallery-grid img');
    await thumbs.first().waitFor();
    expect(await thumbs.count()).toBe(Math.min(24, data.page.total));
    const attrs = await thumbs.evaluateAll((imgs) =>
      imgs.map((i) => [
        i.getAttribute('loading'),
        i.getAttribute('width'),
        i.getAttribute('height'),
        i.getAttribute('alt'),
      ]),
    );
    for (const [loading, width, height, alt] of attrs) {
      expect(['lazy', 'eager']).toContain(loading);
      expect(Number(width)).toBeGreaterThan(0);
      expect(Number(height)).toBeGreaterThan(0);
      expect(alt).toBeTruthy();
    }
    expect(attrs.filter(([loading]) => loading === 'lazy').length).toBeGreaterThan(0);
    await imagesLoaded(page, '.wx-gallery-grid img');
    await screenshot(page, 'photo-1280');

    const first = data.results[0];
    if (!first) throw new Error('no demo photo');
    await page.getByRole('button', { name: first.title, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: first.title });
    await dialog.waitFor();
    const full = dialog.getByRole('img', { name: first.title });
    expect(await full.getAttribute('src')).toBe(first.url);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.wx-photo-dialog-image');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await screenshot(page, 'photo-preview-1280');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: data.results[1]?.title }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await close();

    const narrow = await openPage(session, { width: 375, height: 812 });
    await narrow.page.goto('/photo');
    await narrow.page.locator('.wx-gallery-grid img').first().waitFor();
    await imagesLoaded(narrow.page, '.wx-gallery-grid img');
    expect(await sidewaysScroll(narrow.page)).toBe(0);
    const columns = await narrow.page
      .locator('.wx-gallery-grid')
      .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
    expect(columns).toBe(2);
    await screenshot(narrow.page, 'photo-375');
    await narrow.page.locator('.wx-gallery-open').first().click();
    await narrow.page.locator('.wx-photo-dialog-image').waitFor();
    await narrow.page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.wx-photo-dialog-image');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await screenshot(narrow.page, 'photo-preview-375');
    await narrow.close();
  });

  it('lets an editor upload a photo on the admin screen; it shows on /photo with its thumbnail', async () => {
    const editor = await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD);
    const png = await sharp({
      create: { width: 1600, height: 1067, channels: 3, background: '#2f7a5f' },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1067"><circle cx="800" cy="533" r="300" fill="#f6c453"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const { page, errors, close } = await openPage(session, { width: 1440, height: 900 });
    await useToken(page, editor);
    const form = await openCreateForm(page, '/admin/blog/photo');
    await form.getByLabel('标题', { exact: true }).fill('夏日荷塘');
    await form.getByLabel('相册', { exact: true }).fill('端到端上传');

    // A text file named .png is refused, and the field stays empty.
    const picker = form.locator('input[type="file"][data-upload-resource="photos"]');
    const refused = page.waitForResponse((r) => r.url().includes('/api/admin/uploads'));
    await picker.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('不是图片'.repeat(40)),
    });
    expect((await refused).status()).toBe(422);
    await page
      .locator('.ant-message')
      .getByText(/不支持的文件类型/)
      .waitFor();
    expect(await form.getByLabel('图片', { exact: true }).inputValue()).toBe('');

    const uploaded = page.waitForResponse((r) => r.url().includes('/api/admin/uploads'));
    await picker.setInputFiles({ name: '荷塘.png', mimeType: 'image/png', buffer: png });
    const answer = (await (await uploaded).json()) as { data: { url: string; thumbnail: { url: string } } };
    await expect.poll(() => form.getByLabel('图片', { exact: true }).inputValue()).toBe(answer.data.url);
    await form.locator('.wx-image-input-preview img').waitFor();
    await screenshot(page, 'admin-photo-upload');
    // Watched from the moment it is sent: the message shows for 3 s, and on a loaded machine the
    // form can take longer than that to close.
    const saved = page.locator('.ant-message').getByText(/成功/).first().waitFor();
    await form.getByRole('button', { name: /^保\s?存$/ }).click();
    await form.waitFor({ state: 'detached' });
    await saved;
    const [row] = await api.list('photos', { q: '夏日荷塘' });
    expect(row).toMatchObject({
      image: answer.data.url,
      thumbnail: answer.data.thumbnail.url,
      status: 'published',
    });
    // The browser logs the refused upload's 422; nothing else may fail.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    await close();

    // No 拍摄时间: it counts from its upload, so it leads the gallery.
    const visitor = await openPage(session);
    await visitor.page.goto('/photo');
    const thumb = visitor.page.locator('.wx-gallery-grid img').first();
    await thumb.waitFor();
    expect(await thumb.getAttribute('alt')).toBe('夏日荷塘');
    expect(await thumb.getAttribute('src')).toBe(answer.data.thumbnail.url);
    expect([await thumb.getAttribute('width'), await thumb.getAttribute('height')]).toEqual(['480', '320']);
    await imagesLoaded(visitor.page, '.wx-gallery-grid img');
    await visitor.page.getByRole('link', { name: '端到端上传 1 张' }).click();
    await visitor.page.waitForURL((url) => url.searchParams.get('album') === '端到端上传');
    await visitor.page.getByRole('button', { name: '夏日荷塘', exact: true }).click();
    const full = visitor.page
      .getByRole('dialog', { name: '夏日荷塘' })
      .getByRole('img', { name: '夏日荷塘' });
    expect(await full.getAttribute('src')).toBe(answer.data.url);
    await visitor.close();
  });
});
