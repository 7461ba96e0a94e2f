/**
 * The public site's pager (blog, document library, movies). Plain links, never buttons: the URL
 * holds the page, so every page can be shared, reloaded and crawled. Styled in public.css, which
 * the public layout always loads; phones see "上一页 3 / 12 下一页" instead of the numbers.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** Page numbers to show: the first, the last, and two either side of the current one. */
export function pageItems(current: number, pages: number): (number | 'gap')[] {
  const wanted = new Set([1, pages, current - 2, current - 1, current, current + 1, current + 2]);
  const list = [...wanted].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  list.forEach((p, i) => {
    const before = list[i - 1];
    if (before !== undefined && p - before > 1) out.push('gap');
    out.push(p);
  });
  return out;
}

/** Pages needed for `total` items at `limit` a page; an empty list still has its one page. */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}

/** Previous / next; at either end a greyed span, so the row keeps its shape and nothing dead is focusable. */
function Step({ to, rel, children }: { to: string | null; rel: 'prev' | 'next'; children: ReactNode }) {
  return to === null ? (
    <span className="wx-pager-step" aria-disabled="true">
      {children}
    </span>
  ) : (
    <Link className="wx-pager-step" to={to} rel={rel}>
      {children}
    </Link>
  );
}

export function Pager({
  page,
  count,
  hrefOf,
  label = '分页',
  totalText,
}: {
  page: number;
  /** How many pages there are; nothing renders for a single page. */
  count: number;
  hrefOf: (page: number) => string;
  /** The nav's accessible name; screens with two pagers tell them apart by it. */
  label?: string;
  /** A line after the steps such as 共 23 篇; omitted when the screen says it elsewhere. */
  totalText?: string;
}) {
  if (count <= 1) return null;
  return (
    <nav className="wx-pager" aria-label={label}>
      <Step to={page > 1 ? hrefOf(page - 1) : null} rel="prev">
        上一页
      </Step>
      <ul className="wx-pager-pages">
        {pageItems(page, count).map((item, i) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
            <li key={`gap-${i}`} className="wx-pager-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                className={item === page ? 'wx-pager-page wx-pager-current' : 'wx-pager-page'}
                to={hrefOf(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`第 ${item} 页`}
              >
                {item}
              </Link>
            </li>
          ),
        )}
      </ul>
      <span className="wx-pager-compact">
        {page} / {count}
      </span>
      <Step to={page < count ? hrefOf(page + 1) : null} rel="next">
        下一页
      </Step>
      {totalText && <span className="wx-pager-total">{totalText}</span>}
    </nav>
  );
}
