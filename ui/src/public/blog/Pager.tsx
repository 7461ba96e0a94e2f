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

/** Paging as plain links (the URL holds ?page=), so every page can be opened, shared and crawled. */
export function Pager({
  page,
  total,
  limit,
  hrefOf,
}: {
  page: number;
  total: number;
  limit: number;
  hrefOf: (page: number) => string;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  return (
    <nav className="wx-pager" aria-label="分页">
      {page > 1 ? (
        <Link className="wx-pager-step" to={hrefOf(page - 1)} rel="prev">
          上一页
        </Link>
      ) : (
        <span className="wx-pager-step wx-pager-disabled" aria-disabled="true">
          上一页
        </span>
      )}
      <ul className="wx-pager-pages">
        {pageItems(page, pages).map((item, i) =>
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
      {page < pages ? (
        <Link className="wx-pager-step" to={hrefOf(page + 1)} rel="next">
          下一页
        </Link>
      ) : (
        <span className="wx-pager-step wx-pager-disabled" aria-disabled="true">
          下一页
        </span>
      )}
      <span className="wx-pager-total">共 {total} 篇</span>
    </nav>
  );
}
