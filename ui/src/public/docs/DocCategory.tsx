/** /doc/category: the category tree with the number of published documents under each. */
import { Link, useNavigate } from 'react-router-dom';
import { type CategoryNode, fetchCategories, useLoad } from './docs-api';
import { Busy, Failed, Nothing } from './parts';
import { SearchBox } from './SearchBox';
import './docs.css';

function Branch({ nodes }: { nodes: readonly CategoryNode[] }) {
  return (
    <ul className="wx-doc-subtree">
      {nodes.map((node) => (
        <li key={node.id}>
          <Link to={`/doc/list/${node.id}`} className="wx-doc-subcat">
            <span>{node.name}</span>
            <span className="wx-doc-count">
              {node.count}
              <span className="wx-visually-hidden"> 篇</span>
            </span>
          </Link>
          {node.children.length > 0 && <Branch nodes={node.children} />}
        </li>
      ))}
    </ul>
  );
}

export default function DocCategory() {
  const navigate = useNavigate();
  const [loaded, retry] = useLoad('categories', fetchCategories);
  const total = loaded.data?.reduce((sum, n) => sum + n.count, 0) ?? 0;
  return (
    <section className="wx-doc">
      <header className="wx-doc-head">
        <h1 className="wx-public-screen-title">文档分类</h1>
        <p className="wx-doc-lead">
          按分类浏览法律法规、规章、司法解释与合同范本{loaded.data ? `，共 ${total} 篇` : ''}。
        </p>
      </header>
      <SearchBox onSearch={(q) => navigate(`/doc/search?q=${encodeURIComponent(q)}`)} />
      {loaded.state === 'failed' && <Failed message={loaded.message} retry={retry} />}
      {loaded.state === 'loading' && !loaded.data && <Busy />}
      {loaded.data && loaded.data.length === 0 && <Nothing>还没有文档分类</Nothing>}
      {loaded.data && loaded.data.length > 0 && (
        <ul className="wx-doc-cats">
          {loaded.data.map((node) => (
            <li key={node.id} className="wx-doc-cat">
              <Link to={`/doc/list/${node.id}`} className="wx-doc-cat-head">
                <span className="wx-doc-cat-name">{node.name}</span>
                <span className="wx-doc-count">
                  {node.count}
                  <span className="wx-visually-hidden"> 篇</span>
                </span>
              </Link>
              {node.children.length > 0 ? (
                <Branch nodes={node.children} />
              ) : (
                <p className="wx-doc-cat-empty">无下级分类</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
