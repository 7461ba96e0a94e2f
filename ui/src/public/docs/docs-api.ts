/**
 * The /doc screens' side of the document library: core's calls (core/src/docs/public-api.ts) with
 * the screens' page size, and a loading hook.
 */
import {
  type CategoryNode,
  createDocsApi,
  type DocListQuery,
  type DocPage,
  type DocSearchResult,
  type HttpClient,
} from '@wanxiang/core';
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../../session/services-context';

export type { CategoryNode, DocHit, DocPage, DocSearchResult as DocList, Validity } from '@wanxiang/core';
export { VALIDITY_LABELS } from '@wanxiang/core';

/** Results a page on the /doc screens (fewer than the admin's 20: each result has a snippet). */
export const PAGE_SIZE = 10;

export const fetchCategories = (http: HttpClient): Promise<CategoryNode[]> =>
  createDocsApi(http).categories();

export const fetchDocs = (http: HttpClient, query: Omit<DocListQuery, 'limit'>): Promise<DocSearchResult> =>
  createDocsApi(http).docs({ ...query, limit: PAGE_SIZE });

export const fetchDocPage = (http: HttpClient, id: number, page: number): Promise<DocPage> =>
  createDocsApi(http).page(id, page);

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
