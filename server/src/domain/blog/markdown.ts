/**
 * Article Markdown → safe HTML, on the server (README.md "Rendering"). markdown-it renders with
 * raw HTML allowed, so authors may use the odd <kbd> or <details>; sanitize-html then keeps only
 * an allow-list of tags, attributes and URL schemes. The sanitizer is the guard, not the
 * Markdown options: whatever markdown-it lets through, nothing executable leaves this file.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false, breaks: false });

// The article's title is the page's h1: the article's top heading level becomes h2 and the others
// follow (an article written with ### sections gets h2 sections), so headings never skip a level.
markdown.core.ruler.push('wx_shift_headings', (state) => {
  const headings = state.tokens.filter((t) => t.type === 'heading_open' || t.type === 'heading_close');
  if (headings.length === 0) return;
  const top = Math.min(...headings.map((t) => Number(t.tag.slice(1))));
  for (const token of headings) token.tag = `h${Math.min(6, Number(token.tag.slice(1)) - top + 2)}`;
});

/** Raster images inline are fine; anything else under data: (HTML, SVG with script) is not. */
const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i;
const ALIGN = /text-align\s*:\s*(left|center|right)/i;
const EXTERNAL = /^https?:\/\//i;

export const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    'b',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'sub',
    'sup',
    'kbd',
    'abbr',
    'span',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    abbr: ['title'],
    ol: ['start'],
    th: ['colspan', 'rowspan', 'class'],
    td: ['colspan', 'rowspan', 'class'],
    code: ['class'],
  },
  allowedClasses: {
    code: ['language-*'],
    th: ['wx-align-left', 'wx-align-center', 'wx-align-right'],
    td: ['wx-align-left', 'wx-align-center', 'wx-align-right'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowedStyles: {},
  // Dropped with everything inside them, not just their tags. (svg and math are not listed: their
  // tags go, any script inside goes as a script, and an unclosed one does not swallow the rest.)
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'iframe',
    'frame',
    'frameset',
    'object',
    'applet',
    'template',
    'noembed',
    'noframes',
    'xmp',
    'title',
    'head',
  ],
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { ...attribs, rel: 'noopener noreferrer nofollow' };
      if (attribs.href && EXTERNAL.test(attribs.href.trim())) out.target = '_blank';
      else delete out.target;
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { ...attribs, loading: 'lazy', decoding: 'async' };
      const src = attribs.src?.trim() ?? '';
      if (/^data:/i.test(src) && !SAFE_DATA_IMAGE.test(src)) delete out.src;
      if (out.alt === undefined) out.alt = '';
      return { tagName, attribs: out };
    },
    // markdown-it aligns table cells with style="text-align:…": styles are not allowed, classes are.
    th: alignToClass,
    td: alignToClass,
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

function alignToClass(tagName: string, attribs: sanitizeHtml.Attributes) {
  const { style, ...rest } = attribs;
  const align = style ? ALIGN.exec(style)?.[1]?.toLowerCase() : undefined;
  return { tagName, attribs: align ? { ...rest, class: `wx-align-${align}` } : rest };
}

export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}

/** The article body as the public page shows it. */
export function renderArticle(source: string): string {
  return sanitizeArticleHtml(markdown.render(source));
}

/**
 * Rendered bodies by (id, updatedAt): an edit moves updatedAt, so a cached body is never stale.
 * Bounded; the oldest entry goes first.
 */
export class RenderCache {
  private readonly entries = new Map<string, string>();
  constructor(private readonly max = 200) {}

  get(id: number, updatedAt: number, source: string): string {
    const key = `${id}:${updatedAt}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const html = renderArticle(source);
    this.entries.set(key, html);
    if (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return html;
  }
}
