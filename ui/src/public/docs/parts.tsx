/** Pieces the /doc screens share: the result item, the states and highlighted text (the pager is ../Pager). */
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
