/** /doc/list/:categoryId?: published documents of a category (sub-categories included), newest first. */
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Pager } from '../Pager';
import { fetchDocs, PAGE_SIZE, useLoad } from './docs-api';
import { Busy, DocItem, Failed, Nothing } from './parts';
import './docs.css';

export default function DocList() {
  const params = useParams();
  const [search] = useSearchParams();
  const categoryId = Number(params.categoryId) > 0 ? Number(params.categoryId) : undefined;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const [loaded, retry] = useLoad(`list:${categoryId}:${page}`, (http) =>
    fetchDocs(http, { categoryId, page }),
  );
  const data = loaded.data;
  const path = data?.categoryPath ?? [];
  const here = path.at(-1)?.name ?? (categoryId ? '文档列表' : '全部文档');
  const base = `/doc/list${categoryId ? `/${categoryId}` : ''}`;
  const count = data ? Math.ceil(data.page.total / PAGE_SIZE) : 0;
  return (
    <section className="wx-doc">
      <nav className="wx-doc-crumbs" aria-label="位置">
        <ol>
          <li>
            <Link to="/doc/category">文档分类</Link>
          </li>
          {path.slice(0, -1).map((c) => (
            <li key={c.id}>
              <Link to={`/doc/list/${c.id}`}>{c.name}</Link>
            </li>
          ))}
          <li aria-current="page">{here}</li>
        </ol>
      </nav>
      <header className="wx-doc-head wx-doc-head-row">
        <h1 className="wx-public-screen-title">{here}</h1>
        {data && <span className="wx-doc-total">共 {data.page.total} 篇</span>}
      </header>
      <div
        className={data ? 'wx-doc-panel' : 'wx-doc-panel wx-doc-panel-results'}
        aria-busy={loaded.state === 'loading'}
      >
        {loaded.state === 'failed' && <Failed message={loaded.message} retry={retry} />}
        {loaded.state === 'loading' && !data && <Busy />}
        {data && data.results.length === 0 && loaded.state !== 'failed' && (
          <Nothing>这个分类下还没有文档</Nothing>
        )}
        {data && data.results.length > 0 && (
          <ul className="wx-doc-list">
            {data.results.map((doc) => (
              <DocItem key={doc.id} doc={doc} highlight={false} />
            ))}
          </ul>
        )}
        <Pager page={page} count={count} hrefOf={(p) => (p > 1 ? `${base}?page=${p}` : base)} />
      </div>
    </section>
  );
}
