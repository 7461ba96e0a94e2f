/**
 * The document library's calls (API.md "Public") and their answers, for the /doc screens.
 * Only types and the HTTP client: no registry, no zod, so the chunks stay light.
 */
import type { HttpClient } from '@wanxiang/core';
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../../session/services-context';

export type Validity = 'effective' | 'amended' | 'repealed';

export const VALIDITY_LABELS: Record<Validity, string> = {
  effective: '现行有效',
  amended: '已被修改',
  repealed: '已废止',
};

export interface CategoryNode {
  id: number;
  name: string;
  parentId: number | null;
  count: number;
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
  snippet: string | null;
  titleHtml: string;
  hitPage: number | null;
  categoryId: number;
  pageCount: number;
  views: number;
}

export interface DocList {
  results: DocHit[];
  page: { total: number; page: number; limit: number };
  totalExact: boolean;
  categoryPath: { id: number; name: string }[];
}

export interface DocPage {
  doc: DocHit;
  page: { pageNo: number; content: string };
}

interface Envelope<T> {
  data: T;
}

export const PAGE_SIZE = 10;

export async function fetchCategories(http: HttpClient): Promise<CategoryNode[]> {
  return (await http.request<Envelope<CategoryNode[]>>('/api/public/doc/categories')).data;
}

export interface DocListQuery {
  q?: string;
  categoryId?: number;
  validity?: Validity;
  page: number;
}

export async function fetchDocs(http: HttpClient, query: DocListQuery): Promise<DocList> {
  return (
    await http.request<Envelope<DocList>>('/api/public/docs', {
      query: { ...query, limit: PAGE_SIZE },
    })
  ).data;
}

export async function fetchDocPage(http: HttpClient, id: number, page: number): Promise<DocPage> {
  return (await http.request<Envelope<DocPage>>(`/api/docs/${id}/pages/${page}`)).data;
}

export type Loaded<T> =
  | { state: 'loading'; data?: T }
  | { state: 'ready'; data: T }
  | { state: 'failed'; data?: T; message: string };

/** Loads `load()` again whenever `key` changes; `retry` loads once more. Stale answers are dropped. */
export function useLoad<T>(key: string, load: (http: HttpClient) => Promise<T>): [Loaded<T>, () => void] {
  const { http } = useServices();
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything `load` reads
  useEffect(() => {
    let live = true;
    setLoaded((prev) => ({ state: 'loading', data: prev.data }));
    load(http).then(
      (data) => live && setLoaded({ state: 'ready', data }),
      (error: unknown) =>
        live &&
        setLoaded((prev) => ({
          state: 'failed',
          data: prev.data,
          message: error instanceof Error && error.message ? error.message : '加载失败',
        })),
    );
    return () => {
      live = false;
    };
  }, [key, attempt, http]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return [loaded, retry];
}

/** Depth-first list of the tree with each node's depth (for a <select>). */
export function flattenCategories(
  nodes: readonly CategoryNode[],
  depth = 0,
): { node: CategoryNode; depth: number }[] {
  return nodes.flatMap((node) => [{ node, depth }, ...flattenCategories(node.children, depth + 1)]);
}
