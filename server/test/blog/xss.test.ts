/**
 * Article bodies through the real route: every payload of the corpus is stored as an editor would
 * write it, published, and read back from GET /api/public/articles/{id}. The answer's HTML must
 * carry no script, no event handler, no executable URL and no embedding element.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

export const XSS_CORPUS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">点我</a>',
  '<a href="JaVaScRiPt:alert(1)">点我</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">实体</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">实体</a>',
  '<a href="jav&#x09;ascript:alert(1)">制表符</a>',
  '<a href=" javascript:alert(1)">前导空格</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<p style="width: expression(alert(1))">样式</p>',
  '<div style="background:url(javascript:alert(1))">样式</div>',
  '<details open ontoggle=alert(1)><summary>s</summary></details>',
  '<body onload=alert(1)>',
  '<form action="javascript:alert(1)"><button>提交</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="#" onclick="alert(1)">点击</a>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](javascript&#58;alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '![x](x" onerror="alert(1))',
  '[x](https://example.com" onmouseover="alert(1))',
  '<javascript:alert(1)>',
  '<vbscript:msgbox(1)>',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</script>',
  '<img src=`x` onerror=alert(1)>',
  '<img/src="x"/onerror=alert(1)>',
  '<a href="https://example.com" target="_self" rel="opener">外链</a>',
];

/** Everything executable that could be left in HTML. */
function executable(html: string): string[] {
  const found: string[] = [];
  if (/<\s*script/i.test(html)) found.push('script element');
  // An attribute whose name starts with on, inside a tag.
  if (/<[^>]*\s(?:on[a-z]+)\s*=/i.test(html)) found.push('event attribute');
  if (
    /<[^>]*(?:href|src|action|formaction|xlink:href|data)\s*=\s*["']?\s*(?:javascript|vbscript):/i.test(html)
  )
    found.push('script URL');
  if (/<[^>]*(?:href|src)\s*=\s*["']?\s*data:(?!image\/(?:png|jpe?g|gif|webp);)/i.test(html))
    found.push('data URL');
  if (
    /<\s*(?:iframe|object|embed|svg|math|style|link|meta|base|form|input|template|frame|applet)\b/i.test(html)
  )
    found.push('forbidden element');
  if (/<[^>]*\sstyle\s*=/i.test(html)) found.push('style attribute');
  return found;
}

describe.each(DB_KINDS)('article HTML is inert on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  it('has a corpus of more than 15 payloads, and the checker catches raw ones', () => {
    expect(XSS_CORPUS.length).toBeGreaterThan(15);
    expect(executable('<img src=x onerror=alert(1)>')).toContain('event attribute');
    expect(executable('<a href="javascript:alert(1)">')).toContain('script URL');
  });

  it.each(XSS_CORPUS.map((p, i) => [i, p] as const))('payload %i renders inert: %s', async (_i, payload) => {
    const created = await api.post('/api/admin/articles', {
      title: '安全测试',
      content: `前言\n\n${payload}\n\n结尾`,
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.data.id as number;
    expect((await api.post(`/api/admin/articles/${id}/publish`)).status).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: `/api/public/articles/${id}` });
    expect(res.statusCode).toBe(200);
    const { html } = res.json().data as { html: string };
    expect(executable(html), html).toEqual([]);
    // The text around the payload survives: sanitizing removes the attack, not the article.
    expect(html).toContain('前言');
    // …except after a raw-text element left open (an unclosed <style> rightly takes the rest with it).
    const leftOpen = /<(style|script|iframe|template|textarea)\b(?![\s\S]*<\/\1)/i.test(payload);
    if (!leftOpen) expect(html).toContain('结尾');
    // Every link that is left is a safe one.
    for (const [, rel] of html.matchAll(/<a [^>]*?rel="([^"]*)"/g))
      expect(rel).toBe('noopener noreferrer nofollow');
    expect((html.match(/<a /g) ?? []).length).toBe(
      (html.match(/<a [^>]*rel="noopener noreferrer nofollow"/g) ?? []).length,
    );
  });

  it('keeps what an honest article needs: headings, emphasis, lists, code, tables, images, safe links', async () => {
    const content = [
      '## 小标题',
      '一段**加粗**和*斜体*，还有`代码`。',
      '- 甲\n- 乙',
      '| 名称 | 价格 |\n|:--|--:|\n| 茶 | 12 |',
      '![西湖](/api/files/0123456789abcdef0123456789abcdef.jpg "断桥")',
      '[官网](https://example.com) 与 https://example.org',
      '```js\nconst a = 1 < 2;\n```',
    ].join('\n\n');
    const created = await api.post('/api/admin/articles', { title: '正常文章', content });
    const id = created.body.data.id as number;
    await api.post(`/api/admin/articles/${id}/publish`);
    const { html } = (await t.app.inject({ method: 'GET', url: `/api/public/articles/${id}` })).json().data;
    expect(html).toContain('<h2>小标题</h2>');
    expect(html).toContain('<strong>加粗</strong>');
    expect(html).toContain('<em>斜体</em>');
    expect(html).toContain('<li>甲</li>');
    expect(html).toContain('<th class="wx-align-left">名称</th>');
    expect(html).toContain('<td class="wx-align-right">12</td>');
    expect(html).toContain(
      '<img src="/api/files/0123456789abcdef0123456789abcdef.jpg" alt="西湖" title="断桥" loading="lazy" decoding="async" />',
    );
    expect(html).toContain(
      '<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">官网</a>',
    );
    expect(html).toContain(
      '<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">',
    );
    expect(html).toContain('<code class="language-js">const a = 1 &lt; 2;\n</code>');
  });
});
