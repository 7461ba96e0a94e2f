/**
 * The document library's public calls (API.md "Public") and their answers: one set of types for
 * the server that answers, the /doc screens and any other client. Types and the HTTP client only
 * (no registry, no zod), so the public chunks stay light.
 */
import type { PageInfo } from '../blog/public-api';
import type { SuccessEnvelope } from '../contract/envelope';
import type { HttpClient } from '../http/client';

export const VALIDITIES = ['effective', 'amended', 'repealed'] as const;
export type Validity = (typeof VALIDITIES)[number];

/** As the registry's docs.validity labels them (core/src/resources/definitions/documents.ts). */
export const VALIDITY_LABELS: Readonly<Record<Validity, string>> = {
  effective: '现行有效',
  amended: '已被修改',
  repealed: '已废止',
};

export interface CategoryNode {
  id: number;
  name: string;
  parentId: number | null;
  /** Published documents in this category and its descendants. */
  count: number;
  /** Published documents directly in this category. */
  ownCount: number;
  children: CategoryNode[];
}

export interface DocHit {
  id: number;
  title: string;
  docNo: string | null;
  issuer: string | null;
  publishDate: string | null;
  effectiveDate: string | null;
  validity: Validity;
  summary: string | null;
  /** HTML-safe: text escaped, hits in <mark>. */
  snippet: string | null;
  /** HTML-safe title with hits in <mark> (search only). */
  titleHtml: string;
  /** The page whose text the snippet comes from (search only). */
  hitPage: number | null;
  categoryId: number;
  pageCount: number;
  views: number;
}

export interface DocSearchResult {
  results: DocHit[];
  page: PageInfo;
  /** False when more documents match than a search ranks: `total` is then a lower bound. */
  totalExact: boolean;
  /** The category asked for and its ancestors, root first (for a breadcrumb). */
  categoryPath: { id: number; name: string }[];
}

export interface DocPage {
  doc: DocHit;
  page: { pageNo: number; content: string };
}

export interface DocListQuery {
  q?: string;
  categoryId?: number;
  validity?: Validity;
  page?: number;
  limit?: number;
}

export interface DocsApi {
  categories(): Promise<CategoryNode[]>;
  /** Without `q`: a category's published documents, newest first; with `q`: the search. */
  docs(query?: DocListQuery): Promise<DocSearchResult>;
  /** Needs a signed-in user; counts a view. 404 for a draft, a deleted document or a missing page. */
  page(id: number, pageNo: number): Promise<DocPage>;
}

export function createDocsApi(http: HttpClient): DocsApi {
  return {
    async categories() {
      return (await http.request<SuccessEnvelope<CategoryNode[]>>('/api/public/doc/categories')).data;
    },
    async docs(query = {}) {
      const answer = await http.request<SuccessEnvelope<DocSearchResult>>('/api/public/docs', {
        query: { ...query, q: query.q || undefined },
      });
      return answer.data;
    },
    async page(id, pageNo) {
      return (await http.request<SuccessEnvelope<DocPage>>(`/api/docs/${id}/pages/${pageNo}`)).data;
    },
  };
}
