/**
 * `/` — the blog home: published articles newest first, the most used tags, paging. The URL holds
 * the state (`?tag=&page=`), so a filtered page can be shared and the back button works. Plain
 * markup and core's blog client only: this is the first screen most visitors load.
 */
import {
  ARTICLES_PER_PAGE,
  type ArticleSummary,
  createBlogApi,
  formatDate,
  type TagCount,
} from '@wanxiang/core';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useServices } from '../../session/services-context';
import { Pager, pageCount } from '../Pager';
import { useRemote } from '../use-remote';
import './blog.css';

const views = new Intl.NumberFormat('zh-CN');

/** `?page=` as a page number from 1; anything else is page 1. */
export function pageParam(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}

export function blogHref(tag: string, page = 1): string {
  const query = new URLSearchParams();
  if (tag) query.set('tag', tag);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `/?${text}` : '/';
}

export function TagLinks({ tags, active }: { tags: readonly string[]; active?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className="wx-tags" aria-label="标签">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={blogHref(tag)}
            className={tag === active ? 'wx-tag wx-tag-active' : 'wx-tag'}
            aria-current={tag === active ? 'true' : undefined}
          >
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Cards above the fold on a desktop: their covers load at once (one of them is the largest paint). */
const EAGER_COVERS = 3;

function ArticleCard({
  article,
  activeTag,
  eager,
}: {
  article: ArticleSummary;
  activeTag: string;
  eager: boolean;
}) {
  const thumb = article.coverThumb ?? article.cover;
  return (
    <article className="wx-post-card">
      <div className="wx-post-text">
        <h2 className="wx-post-title">
          <Link to={`/article/${article.id}`} className="wx-post-link">
            {article.title}
          </Link>
        </h2>
        {article.summary && <p className="wx-post-summary">{article.summary}</p>}
        <div className="wx-post-meta">
          {article.publishedAt && (
            <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
          )}
          <span>{views.format(article.views)} 次阅读</span>
        </div>
        <TagLinks tags={article.tags} active={activeTag} />
      </div>
      {thumb && (
        <div className="wx-post-cover">
          <img
            src={thumb}
            alt=""
            width={480}
            height={320}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
        </div>
      )}
    </article>
  );
}

function CardSkeleton() {
  return (
    <div className="wx-post-card wx-skeleton" aria-hidden="true">
      <div className="wx-post-text">
        <div className="wx-skeleton-line wx-skeleton-title" />
        <div className="wx-skeleton-line" />
        <div className="wx-skeleton-line wx-skeleton-short" />
      </div>
      <div className="wx-post-cover wx-skeleton-block" />
    </div>
  );
}

/** The tag card's place while the list loads, so nothing below it moves when the tags arrive. */
function TagCloudPlaceholder() {
  return (
    <div className="wx-blog-side-card wx-skeleton" aria-hidden="true">
      <div className="wx-skeleton-line wx-skeleton-title" />
      <div className="wx-skeleton-line" />
    </div>
  );
}

function TagCloud({ tags, active }: { tags: readonly TagCount[]; active: string }) {
  if (tags.length === 0) return null;
  return (
    <section className="wx-blog-side-card" aria-labelledby="wx-blog-tags-title">
      <h2 id="wx-blog-tags-title" className="wx-blog-side-title">
        标签
      </h2>
      <ul className="wx-tags wx-tag-cloud">
        {active && (
          <li>
            <Link to="/" className="wx-tag wx-tag-all">
              全部文章
            </Link>
          </li>
        )}
        {tags.map((tag) => (
          <li key={tag.name}>
            <Link
              to={blogHref(tag.name)}
              className={tag.name === active ? 'wx-tag wx-tag-active' : 'wx-tag'}
              aria-current={tag.name === active ? 'true' : undefined}
            >
              #{tag.name}{' '}
              <span className="wx-tag-count">
                {tag.count}
                <span className="wx-visually-hidden"> 篇</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LoadFailed({ onRetry, what }: { onRetry: () => void; what: string }) {
  return (
    <div className="wx-blog-state" role="alert">
      <p>{what}加载失败，请检查网络后重试。</p>
      <button type="button" className="wx-button" onClick={onRetry}>
        重新加载
      </button>
    </div>
  );
}

export default function BlogHome() {
  const { http } = useServices();
  const api = useMemo(() => createBlogApi(http), [http]);
  const [params] = useSearchParams();
  const page = pageParam(params.get('page'));
  const tag = (params.get('tag') ?? '').trim().slice(0, 20);
  const [remote, retry] = useRemote(
    () => api.articles({ page, limit: ARTICLES_PER_PAGE, tag: tag || undefined }),
    [api, page, tag],
  );

  // A new page or filter starts at the top, as a page load would.
  useEffect(() => {
    if (page > 1 || tag) window.scrollTo({ top: 0 });
  }, [page, tag]);

  const data = remote.data;
  return (
    <section className="wx-blog" aria-labelledby="wx-blog-title">
      <div className="wx-blog-head">
        <h1 id="wx-blog-title" className="wx-public-screen-title">
          博客
        </h1>
        {tag && (
          <p className="wx-blog-filter">
            标签 <strong>#{tag}</strong> 下的文章
            {data ? `，共 ${data.page.total} 篇` : ''}
            <Link to="/" className="wx-blog-filter-clear">
              查看全部
            </Link>
          </p>
        )}
      </div>
      <div className="wx-blog-columns">
        <div className="wx-blog-list" aria-busy={remote.state === 'loading'}>
          {remote.state === 'loading' && [0, 1, 2].map((i) => <CardSkeleton key={i} />)}
          {remote.state === 'failed' && <LoadFailed what="文章" onRetry={retry} />}
          {data && data.results.length === 0 && (
            <div className="wx-blog-state">
              <p>
                {tag
                  ? `还没有带 #${tag} 标签的文章。`
                  : page > 1
                    ? '这一页没有文章了。'
                    : '还没有发布文章，敬请期待。'}
              </p>
              {(tag || page > 1) && (
                <Link to="/" className="wx-button">
                  回到博客首页
                </Link>
              )}
            </div>
          )}
          {data?.results.map((article, i) => (
            <ArticleCard key={article.id} article={article} activeTag={tag} eager={i < EAGER_COVERS} />
          ))}
          {data && (
            <Pager
              page={page}
              count={pageCount(data.page.total, data.page.limit)}
              hrefOf={(p) => blogHref(tag, p)}
              totalText={`共 ${data.page.total} 篇`}
            />
          )}
        </div>
        <aside className="wx-blog-side" aria-label="博客侧栏">
          {remote.state === 'loading' && <TagCloudPlaceholder />}
          {data && <TagCloud tags={data.tags} active={tag} />}
        </aside>
      </div>
    </section>
  );
}
