/**
 * The list under a board of its own (the API market's, the monitor jobs'): one page of a
 * registry resource with a keyword, its relations' names and total, reloaded when the page or
 * the keyword moves; a failed load says why in a toast and keeps the rows shown.
 */
import type { Relations, ResourceClient, Row } from '@wanxiang/core';
import { App } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { failureText } from '../public/use-remote';

export interface BoardList<T extends Row> {
  page: number;
  setPage(page: number): void;
  /** A new keyword, from the first page. */
  search(q: string): void;
  rows: T[];
  setRows: React.Dispatch<React.SetStateAction<T[]>>;
  relations: Relations;
  total: number;
  loading: boolean;
  reload(): Promise<void>;
}

export function useBoardList<T extends Row>(
  client: ResourceClient<T>,
  pageSize: number,
  /** What a board keeps beside the rows it was given (a chart's version per row). */
  onLoaded?: (rows: readonly T[]) => void,
): BoardList<T> {
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<T[]>([]);
  const [relations, setRelations] = useState<Relations>({});
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: onLoaded is a callback of the moment, not a reason to reload
  const reload = useCallback(async () => {
    setLoading(true);
    const answer = await client.list({ page, limit: pageSize, q: q || undefined });
    setLoading(false);
    if (!answer.success) {
      message.error(failureText(answer.error));
      return;
    }
    setRows(answer.list);
    setRelations(answer.relations);
    setTotal(answer.count);
    onLoaded?.(answer.list);
  }, [client, page, pageSize, q, message]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const search = useCallback((value: string) => {
    setPage(1);
    setQ(value);
  }, []);

  return { page, setPage, search, rows, setRows, relations, total, loading, reload };
}
