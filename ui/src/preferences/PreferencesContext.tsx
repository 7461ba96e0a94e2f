/** The signed-in user's preferences store, provided by the admin layout to every screen in it. */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import type { PreferencesStore } from './preferences-store';

const PreferencesContext = createContext<PreferencesStore | null>(null);

export function PreferencesProvider({ store, children }: { store: PreferencesStore; children: ReactNode }) {
  return <PreferencesContext.Provider value={store}>{children}</PreferencesContext.Provider>;
}

export function usePreferencesStore(): PreferencesStore {
  const store = useContext(PreferencesContext);
  if (!store) throw new Error('usePreferencesStore: render inside <PreferencesProvider>');
  return store;
}

/** Whether the stored preferences are in (or could not be loaded: the defaults apply). */
export function usePreferencesSettled(): boolean {
  const store = usePreferencesStore();
  return useSyncExternalStore(store.subscribe, () => store.status() !== 'loading');
}

/**
 * One preference: its value checked by `read` (what comes from the server is not trusted to have
 * the right shape; `read` returns undefined for anything else), and a setter; `undefined` removes it.
 * `read` should be a module-level function: the value is recomputed when it or the stored value changes.
 */
export function usePreference<T>(
  key: string,
  read: (value: unknown) => T | undefined,
): [T | undefined, (value: T | undefined) => void] {
  const store = usePreferencesStore();
  const raw = useSyncExternalStore(store.subscribe, () => store.get(key));
  const set = useCallback(
    (value: T | undefined) => (value === undefined ? store.remove(key) : store.set(key, value)),
    [store, key],
  );
  const value = useMemo(() => read(raw), [read, raw]);
  return [value, set];
}
