/**
 * /doc/search: the search box with category and 效力 filters; results with the hits marked in
 * title and snippet. Everything lives in the URL (?q=&categoryId=&validity=&page=), so a search
 * can be shared and the back button walks through it.
 */
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Pager } from '../Pager';
import {
  fetchCategories,
  fetchDocs,
  flattenCategories,
  PAGE_SIZE,
  useLoad,
  VALIDITY_LABELS,
  type Validity,
} from './docs-api';
import { Busy, DocItem, Failed, Nothing } from './parts';
import { SearchBox } from './SearchBox';
import './docs.css';

const VALIDITIES = Object.keys(VALIDITY_LABELS) as Validity[];

export default function DocSearch() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const categoryId = Number(params.get('categoryId')) > 0 ? Number(params.get('categoryId')) : undefined;
  const validityParam = params.get('validity') as Validity | null;
  const validity = validityParam && VALIDITIES.includes(validityParam) ? validityParam : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);

  const [categories] = useLoad('categories', fetchCategories);
  const [loaded, retry] = useLoad(`search:${q}:${categoryId}:${validity}:${page}`, (http) =>
    q
      ? fetchDocs(http, { q, categoryId, validity, page }).then((found) => ({ ...found, q }))
      : Promise.resolve(null),
  );

  const hrefWith = (change: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams();
    const merged = { q, categoryId, validity, page: undefined as number | undefined, ...change };
    for (const [k, v] of Object.entries(merged))
      if (v !== undefined && v !== '' && !(k === 'page' && v === 1)) next.set(k, String(v));
    const text = next.toString();
    return `/doc/search${text ? `?${text}` : ''}`;
  };

  const data = loaded.data;
  const count = data ? Math.ceil(data.page.total / PAGE_SIZE) : 0;
  return (
    <section className="wx-doc">
      <header className="wx-doc-head">
        <h1 className="wx-public-screen-title">文档搜索</h1>
        <p className="wx-doc-lead">
          全文检索法规标题、摘要和正文，支持单字、词语与整句，如「法」「合同」「劳动合同」。
        </p>
      </header>
      <SearchBox initial={q} onSearch={(text) => navigate(hrefWith({ q: text || undefined }))}>
        <div className="wx-doc-filters">
          <label className="wx-doc-filter">
            <span>分类</span>
            <select
              value={categoryId ?? ''}
              onChange={(e) =>
                navigate(hrefWith({ categoryId: e.target.value ? Number(e.target.value) : undefined }))
              }
            >
              <option value="">全部分类</option>
              {flattenCategories(categories.data ?? []).map(({ node, depth }) => (
                <option key={node.id} value={node.id}>
                  {`${'\u3000'.repeat(depth)}${node.name}（${node.count}）`}
                </option>
              ))}
            </select>
          </label>
          <label className="wx-doc-filter">
            <span>效力</span>
            <select
              value={validity ?? ''}
              onChange={(e) => navigate(hrefWith({ validity: e.target.value || undefined }))}
            >
              <option value="">全部</option>
              {VALIDITIES.map((v) => (
                <option key={v} value={v}>
                  {VALIDITY_LABELS[v]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </SearchBox>
      <div
        className={q ? 'wx-doc-panel wx-doc-panel-results' : 'wx-doc-panel'}
        aria-busy={loaded.state === 'loading'}
      >
        {!q && <Nothing>输入关键词开始搜索，例如「劳动合同」「违约金」「个人信息」。</Nothing>}
        {q && loaded.state === 'failed' && <Failed message={loaded.message} retry={retry} />}
        {q && loaded.state === 'loading' && !data && <Busy text="搜索中…" />}
        {q && data && (
          <p className="wx-doc-summary" role="status">
            {data.page.total === 0
              ? `没有找到与「${data.q}」相关的文档`
              : `找到${data.totalExact ? '' : '超过 '}${data.page.total} 篇与「${data.q}」相关的文档`}
          </p>
        )}
        {q && data && data.results.length > 0 && (
          <ul className="wx-doc-list">
            {data.results.map((doc) => (
              <DocItem key={doc.id} doc={doc} highlight />
            ))}
          </ul>
        )}
        {q && data && data.page.total === 0 && (
          <Nothing>换个说法试试：用更短的词，或去掉分类与效力筛选。</Nothing>
        )}
        {q && <Pager page={page} count={count} hrefOf={(p) => hrefWith({ page: p })} label="搜索结果分页" />}
      </div>
    </section>
  );
}
