import { type DependencyList, useCallback, useEffect, useState } from 'react';

/** A screen's data as it loads: only the answer to the latest request is ever shown. */
export type Remote<T> =
  | { state: 'loading'; data?: undefined; error?: undefined }
  | { state: 'ready'; data: T; error?: undefined }
  | { state: 'failed'; data?: undefined; error: unknown };

/** Loads with `load` whenever `deps` change; `retry()` loads again. */
export function useRemote<T>(load: () => Promise<T>, deps: DependencyList): [Remote<T>, () => void] {
  const [remote, setRemote] = useState<Remote<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when `load` changes
  useEffect(() => {
    let current = true;
    setRemote({ state: 'loading' });
    load().then(
      (data) => current && setRemote({ state: 'ready', data }),
      (error: unknown) => current && setRemote({ state: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return [remote, retry];
}
