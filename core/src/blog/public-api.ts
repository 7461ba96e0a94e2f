/**
 * The public blog and gallery (API.md "Public"): typed calls for the site and any other client.
 * No login; the server renders and sanitizes article bodies, so a client shows `html` as it is.
 */
import type { SuccessEnvelope } from '../contract/envelope';
import type { HttpClient } from '../http/client';

export interface PageInfo {
  total: number;
  page: number;
  limit: number;
}

export interface ArticleSummary {
  id: number;
  title: string;
  summary: string;
  /** `/api/files/…` or an external URL; null without a cover. */
  cover: string | null;
  /** A smaller version of the cover for lists (equals `cover` when there is none). */
  coverThumb: string | null;
  tags: string[];
  /** ISO 8601. */
  publishedAt: string | null;
  views: number;
}

export interface TagCount {
  name: string;
  count: number;
}

export interface ArticlePage {
  results: ArticleSummary[];
  page: PageInfo;
  /** The most used tags of all published articles, most used first. */
  tags: TagCount[];
}

export interface ArticleLink {
  id: number;
  title: string;
}

export interface Article extends ArticleSummary {
  /** The body, rendered from Markdown and sanitized on the server. */
  html: string;
  updatedAt: string;
  /** 上一篇: the one published after this. */
  newer: ArticleLink | null;
  /** 下一篇: the one published before this. */
  older: ArticleLink | null;
}

export interface Photo {
  id: number;
  title: string;
  album: string | null;
  tags: string[];
  takenAt: string | null;
  /** The thumbnail (about 480 px wide), or the image itself when there is none. */
  thumbUrl: string;
  url: string;
  /** Pixel size of the full image; null when unknown (an external URL). */
  width: number | null;
  height: number | null;
}

export interface AlbumCount {
  name: string;
  count: number;
}

export interface PhotoPage {
  results: Photo[];
  page: PageInfo;
  albums: AlbumCount[];
}

export interface ArticleQuery {
  page?: number;
  limit?: number;
  tag?: string;
}

export interface PhotoQuery {
  page?: number;
  limit?: number;
  album?: string;
  tag?: string;
}

export const ARTICLES_PER_PAGE = 10;
export const PHOTOS_PER_PAGE = 24;

export interface BlogApi {
  articles(query?: ArticleQuery): Promise<ArticlePage>;
  /** Counts one view. Rejects with an ApiError of status 404 for a draft or a missing article. */
  article(id: number | string): Promise<Article>;
  photos(query?: PhotoQuery): Promise<PhotoPage>;
}

export function createBlogApi(http: HttpClient): BlogApi {
  return {
    async articles(query = {}) {
      const answer = await http.request<SuccessEnvelope<ArticlePage>>('/api/public/articles', {
        query: { page: query.page, limit: query.limit, tag: query.tag || undefined },
      });
      return answer.data;
    },
    async article(id) {
      const answer = await http.request<SuccessEnvelope<Article>>(
        `/api/public/articles/${encodeURIComponent(String(id))}`,
      );
      return answer.data;
    },
    async photos(query = {}) {
      const answer = await http.request<SuccessEnvelope<PhotoPage>>('/api/public/photos', {
        query: {
          page: query.page,
          limit: query.limit,
          album: query.album || undefined,
          tag: query.tag || undefined,
        },
      });
      return answer.data;
    },
  };
}
