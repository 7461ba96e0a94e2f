/**
 * `/article/:id` — one published article. The body arrives as HTML the server rendered from
 * Markdown and sanitized with an allow-list (server/src/domain/blog/README.md); it is shown as it
 * is. Opening the page counts one view. The tab's title becomes the article's title.
 */
import { type Article, createBlogApi, formatDate, isApiError } from '@wanxiang/core';
import { useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useServices, useSiteConfig } from '../../session/services-context';
import { useRemote } from '../use-remote';
import { LoadFailed, TagLinks } from './BlogHome';
import './blog.css';

export const ARTICLE_NOT_FOUND = '文章不存在或未发布';
const views = new Intl.NumberFormat('zh-CN');

function Neighbours({ article }: { article: Article }) {
  if (!article.newer && !article.older) return null;
  return (
    <nav className="wx-article-neighbours" aria-label="相邻文章">
      {article.newer ? (
        <Link to={`/article/${article.newer.id}`} className="wx-article-neighbour">
          <span className="wx-article-neighbour-label">上一篇</span>
          <span className="wx-article-neighbour-title">{article.newer.title}</span>
        </Link>
      ) : (
        <span />
      )}
      {article.older && (
        <Link to={`/article/${article.older.id}`} className="wx-article-neighbour wx-article-neighbour-older">
          <span className="wx-article-neighbour-label">下一篇</span>
          <span className="wx-article-neighbour-title">{article.older.title}</span>
        </Link>
      )}
    </nav>
  );
}

function ArticleView({ article }: { article: Article }) {
  return (
    <article className="wx-article" aria-labelledby="wx-article-title">
      <header className="wx-article-head">
        <h1 id="wx-article-title" className="wx-article-title">
          {article.title}
        </h1>
        <div className="wx-post-meta">
          {article.publishedAt && (
            <span>
              发布于 <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
            </span>
          )}
          <span>{views.format(article.views)} 次阅读</span>
        </div>
        <TagLinks tags={article.tags} />
      </header>
      {article.cover && (
        <figure className="wx-article-cover">
          <img
            src={article.cover}
            // A phone gets the thumbnail (about 480 px wide) rather than the full image.
            srcSet={
              article.coverThumb && article.coverThumb !== article.cover
                ? `${article.coverThumb} 480w, ${article.cover} 1200w`
                : undefined
            }
            sizes="(max-width: 600px) 100vw, 740px"
            alt={`${article.title}的封面`}
            width={1200}
            height={800}
            fetchPriority="high"
          />
        </figure>
      )}
      <div
        className="wx-article-body"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitized (allow-list) by the server
        dangerouslySetInnerHTML={{ __html: article.html }}
      />
      <Neighbours article={article} />
    </article>
  );
}

export default function ArticlePage() {
  const { id = '' } = useParams();
  const { http } = useServices();
  const { pageTitle } = useSiteConfig();
  const api = useMemo(() => createBlogApi(http), [http]);
  const [remote, retry] = useRemote(() => api.article(id), [api, id]);
  const missing = remote.state === 'failed' && isApiError(remote.error) && remote.error.status === 404;
  const title = remote.data?.title;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new article (上一篇/下一篇) starts at the top
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [id]);

  useEffect(() => {
    if (title) document.title = `${title} - ${pageTitle}`;
    else if (missing) document.title = `${ARTICLE_NOT_FOUND} - ${pageTitle}`;
    return () => {
      document.title = pageTitle;
    };
  }, [title, missing, pageTitle]);

  return (
    <section className="wx-article-screen">
      <nav className="wx-breadcrumb" aria-label="当前位置">
        <Link to="/">博客</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{title ?? '文章'}</span>
      </nav>
      {remote.state === 'loading' && (
        <div className="wx-article wx-skeleton" aria-busy="true">
          <h1 className="wx-article-title">文章</h1>
          <div className="wx-skeleton-line wx-skeleton-short" />
          <div className="wx-skeleton-line" />
          <div className="wx-skeleton-line" />
          <div className="wx-skeleton-line wx-skeleton-short" />
        </div>
      )}
      {missing && (
        <div className="wx-article wx-article-missing">
          <h1 className="wx-article-title">文章</h1>
          <p className="wx-article-missing-text" role="alert">
            {ARTICLE_NOT_FOUND}
          </p>
          <p>它可能已被作者撤回或删除，也可能链接有误。</p>
          <Link to="/" className="wx-button">
            回到博客首页
          </Link>
        </div>
      )}
      {remote.state === 'failed' && !missing && (
        <div className="wx-article">
          <h1 className="wx-article-title">文章</h1>
          <LoadFailed what="文章" onRetry={retry} />
        </div>
      )}
      {remote.data && <ArticleView article={remote.data} />}
    </section>
  );
}
