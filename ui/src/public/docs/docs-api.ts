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
import { useServices } from '../../session/services-context';
import { failureText, type Remote, useRemote } from '../use-remote';

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

/** A load of the /doc screens: the last answer stays while the next loads (see use-remote.ts). */
export type Loaded<T> =
  | Exclude<Remote<T>, { state: 'failed' }>
  | (Extract<Remote<T>, { state: 'failed' }> & { message: string });

/** Loads `load()` again whenever `key` changes; `retry` loads once more. Stale answers are dropped. */
export function useLoad<T>(key: string, load: (http: HttpClient) => Promise<T>): [Loaded<T>, () => void] {
  const { http } = useServices();
  const [remote, retry] = useRemote(() => load(http), [key, http], { keepData: true });
  const loaded: Loaded<T> =
    remote.state === 'failed' ? { ...remote, message: failureText(remote.error) } : remote;
  return [loaded, retry];
}

/** Depth-first list of the tree with each node's depth (for a <select>). */
export function flattenCategories(
  nodes: readonly CategoryNode[],
  depth = 0,
): { node: CategoryNode; depth: number }[] {
  return nodes.flatMap((node) => [{ node, depth }, ...flattenCategories(node.children, depth + 1)]);
}
