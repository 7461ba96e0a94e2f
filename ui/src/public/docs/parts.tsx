/** Pieces the /doc screens share: the result item, the pager, the states and highlighted text. */
import { parseSnippet } from '@wanxiang/core';
import { Link } from 'react-router-dom';
import { type DocHit, VALIDITY_LABELS } from './docs-api';

/** Server-made highlight (escaped text, <mark> hits) rendered as text and <mark>, never as HTML. */
export function Highlighted({ html }: { html: string }) {
  return (
    <>
      {parseSnippet(html).map((segment, i) =>
        segment.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments never reorder
          <mark key={i}>{segment.text}</mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

export function ValidityTag({ validity }: { validity: DocHit['validity'] }) {
  return <span className={`wx-doc-validity wx-doc-validity-${validity}`}>{VALIDITY_LABELS[validity]}</span>;
}

export function DocItem({ doc, highlight }: { doc: DocHit; highlight: boolean }) {
  const page = highlight && doc.hitPage ? doc.hitPage : 1;
  return (
    <li className="wx-doc-item">
      <h2 className="wx-doc-item-title">
        <Link to={`/doc/detail/${doc.id}${page > 1 ? `/${page}` : ''}`}>
          {highlight ? <Highlighted html={doc.titleHtml} /> : doc.title}
        </Link>
      </h2>
      <p className="wx-doc-meta">
        <ValidityTag validity={doc.validity} />
        {doc.docNo && <span>{doc.docNo}</span>}
        {doc.issuer && <span>{doc.issuer}</span>}
        {doc.publishDate && <span>公布于 {doc.publishDate}</span>}
      </p>
      {doc.snippet && (
        <p className="wx-doc-snippet">
          {highlight && doc.hitPage && <span className="wx-doc-hitpage">第 {doc.hitPage} 页 · </span>}
          <Highlighted html={doc.snippet} />
        </p>
      )}
    </li>
  );
}

/** Page numbers around the current one, with first/last and gaps: 1 … 4 5 [6] 7 8 … 20. */
function pageNumbers(current: number, count: number): (number | 'gap')[] {
  const out: (number | 'gap')[] = [];
  const from = Math.max(2, current - 2);
  const to = Math.min(count - 1, current + 2);
  out.push(1);
  if (from > 2) out.push('gap');
  for (let p = from; p <= to; p++) out.push(p);
  if (to < count - 1) out.push('gap');
  if (count > 1) out.push(count);
  return out;
}

export function Pager({
  page,
  count,
  hrefOf,
  label = '分页',
}: {
  page: number;
  count: number;
  hrefOf: (page: number) => string;
  label?: string;
}) {
  if (count <= 1) return null;
  return (
    <nav className="wx-pager" aria-label={label}>
      {page > 1 ? (
        <Link className="wx-pager-step" to={hrefOf(page - 1)} rel="prev">
          上一页
        </Link>
      ) : (
        <span className="wx-pager-step" aria-disabled="true">
          上一页
        </span>
      )}
      <span className="wx-pager-numbers">
        {pageNumbers(page, count).map((p, i) =>
          p === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity
            <span key={`gap-${i}`} className="wx-pager-gap" aria-hidden="true">
              …
            </span>
          ) : (
            <Link
              key={p}
              to={hrefOf(p)}
              className={p === page ? 'wx-pager-page wx-pager-current' : 'wx-pager-page'}
              aria-current={p === page ? 'page' : undefined}
              aria-label={`第 ${p} 页`}
            >
              {p}
            </Link>
          ),
        )}
      </span>
      <span className="wx-pager-compact" aria-hidden="true">
        {page} / {count}
      </span>
      {page < count ? (
        <Link className="wx-pager-step" to={hrefOf(page + 1)} rel="next">
          下一页
        </Link>
      ) : (
        <span className="wx-pager-step" aria-disabled="true">
          下一页
        </span>
      )}
    </nav>
  );
}

export function Failed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div className="wx-doc-state" role="alert">
      <p>加载失败：{message}</p>
      <button type="button" className="wx-doc-button" onClick={retry}>
        重试
      </button>
    </div>
  );
}

export function Busy({ text = '加载中…' }: { text?: string }) {
  return (
    <div className="wx-doc-state" role="status" aria-live="polite">
      <span className="wx-doc-spinner" aria-hidden="true" />
      {text}
    </div>
  );
}

export function Nothing({ children }: { children: React.ReactNode }) {
  return <div className="wx-doc-state wx-doc-empty">{children}</div>;
}
