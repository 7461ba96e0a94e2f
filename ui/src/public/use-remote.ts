import { type DependencyList, useCallback, useEffect, useState } from 'react';

/** A screen's data as it loads: only the answer to the latest request is ever shown. */
export type Remote<T> =
  | { state: 'loading'; data?: T; error?: undefined }
  | { state: 'ready'; data: T; error?: undefined }
  | { state: 'failed'; data?: T; error: unknown };

export interface RemoteOptions {
  /**
   * Keep the last answer's data while the next one loads (and when it fails): a list that pages
   * stays on screen, marked busy, instead of blinking empty.
   */
  keepData?: boolean;
}

/** Loads with `load` whenever `deps` change; `retry()` loads again. */
export function useRemote<T>(
  load: () => Promise<T>,
  deps: DependencyList,
  { keepData = false }: RemoteOptions = {},
): [Remote<T>, () => void] {
  const [remote, setRemote] = useState<Remote<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when `load` changes
  useEffect(() => {
    let current = true;
    setRemote((prev) => ({ state: 'loading', data: keepData ? prev.data : undefined }));
    load().then(
      (data) => current && setRemote({ state: 'ready', data }),
      (error: unknown) =>
        current && setRemote((prev) => ({ state: 'failed', data: keepData ? prev.data : undefined, error })),
    );
    return () => {
      current = false;
    };
  }, [...deps, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return [remote, retry];
}

/** What to tell a visitor when a load failed: the server's message, or a plain one. */
export function failureText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '加载失败';
}
