/**
 * /doc/detail/:id/:page?: a document's metadata and one page of its body (signed-in readers;
 * the route guard sends others to /scan_login). The URL follows the page.
 */
import { Link, useParams } from 'react-router-dom';
import { Pager } from '../Pager';
import { type CategoryNode, fetchCategories, fetchDocPage, flattenCategories, useLoad } from './docs-api';
import { Busy, Failed, ValidityTag } from './parts';
import './docs.css';

/** The category and its ancestors, root first. */
function pathTo(tree: readonly CategoryNode[], id: number): CategoryNode[] {
  const byId = new Map(flattenCategories(tree).map(({ node }) => [node.id, node]));
  const path: CategoryNode[] = [];
  for (
    let at = byId.get(id);
    at && path.length < 20;
    at = at.parentId === null ? undefined : byId.get(at.parentId)
  )
    path.unshift(at);
  return path;
}

export default function DocDetail() {
  const params = useParams();
  const id = Number(params.id);
  const page = Math.max(1, Number(params.page) || 1);
  const [loaded, retry] = useLoad(`doc:${id}:${page}`, (http) => fetchDocPage(http, id, page));
  const data = loaded.data;
  const doc = data?.doc;
  const [categories] = useLoad('categories', fetchCategories);
  const path = doc && categories.data ? pathTo(categories.data, doc.categoryId) : [];
  const paragraphs = data?.page.content.split(/\n+/).filter((p) => p.trim()) ?? [];
  return (
    <article className="wx-doc">
      <nav className="wx-doc-crumbs" aria-label="位置">
        <ol>
          <li>
            <Link to="/doc/category">文档分类</Link>
          </li>
          {path.map((c) => (
            <li key={c.id}>
              <Link to={`/doc/list/${c.id}`}>{c.name}</Link>
            </li>
          ))}
          <li aria-current="page">{doc?.title ?? '文档详情'}</li>
        </ol>
      </nav>
      {!doc && <h1 className="wx-public-screen-title">文档详情</h1>}
      {loaded.state === 'failed' && <Failed message={loaded.message} retry={retry} />}
      {loaded.state === 'loading' && !data && <Busy />}
      {doc && data && (
        <>
          <header className="wx-doc-detail-head">
            <h1 className="wx-doc-detail-title">{doc.title}</h1>
            <dl className="wx-doc-facts">
              <div>
                <dt>效力</dt>
                <dd>
                  <ValidityTag validity={doc.validity} />
                </dd>
              </div>
              {doc.docNo && (
                <div>
                  <dt>文号</dt>
                  <dd>{doc.docNo}</dd>
                </div>
              )}
              {doc.issuer && (
                <div>
                  <dt>制定机关</dt>
                  <dd>{doc.issuer}</dd>
                </div>
              )}
              {doc.publishDate && (
                <div>
                  <dt>公布日期</dt>
                  <dd>{doc.publishDate}</dd>
                </div>
              )}
              {doc.effectiveDate && (
                <div>
                  <dt>施行日期</dt>
                  <dd>{doc.effectiveDate}</dd>
                </div>
              )}
              <div>
                <dt>阅读</dt>
                <dd>{doc.views} 次</dd>
              </div>
            </dl>
            {doc.summary && <p className="wx-doc-abstract">{doc.summary}</p>}
          </header>
          <section
            className="wx-doc-body"
            aria-label={`正文第 ${data.page.pageNo} 页，共 ${doc.pageCount} 页`}
            aria-busy={loaded.state === 'loading'}
          >
            <p className="wx-doc-page-no">
              第 {data.page.pageNo} 页 / 共 {doc.pageCount} 页
            </p>
            {paragraphs.map((p, i) => {
              const heading = /^第[一二三四五六七八九十百零]+章/.test(p);
              return heading ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one fixed page
                <h2 key={i} className="wx-doc-chapter">
                  {p}
                </h2>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one fixed page
                <p key={i}>{p}</p>
              );
            })}
          </section>
          <Pager
            page={page}
            count={doc.pageCount}
            hrefOf={(p) => `/doc/detail/${id}/${p}`}
            label="正文分页"
          />
        </>
      )}
    </article>
  );
}
