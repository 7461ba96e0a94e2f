/**
 * Each user's preferences on the server (`GET /api/me/preferences` → `{key: value}`,
 * `PUT /api/me/preferences/{key}` with `{value}`, `DELETE …/{key}`), so column choices, page sizes,
 * saved filters and the open tabs follow the user to another browser.
 *
 * Loaded once when the back office opens; reads are synchronous from memory after that. Writes
 * update memory at once (the screen never waits) and reach the server shortly after, one request
 * per key for a burst of changes. Saving a preference is not an operation the user asked for, so
 * it toasts nothing (kind `silent`); a failure to load leaves the defaults.
 */
import type { HttpClient } from '@wanxiang/core';

export type PreferenceStatus = 'loading' | 'ready' | 'failed';

export interface PreferencesStore {
  status(): PreferenceStatus;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  remove(key: string): void;
  subscribe(listener: () => void): () => void;
  /** Starts the load (once); resolves when it settled either way. */
  load(): Promise<void>;
  /** Sends pending writes now (tests, and before the page goes away). */
  flush(): Promise<void>;
  /** Drops pending writes (signing out). */
  dispose(): void;
}

export const PREFERENCES_PATH = '/api/me/preferences';
const WRITE_DELAY_MS = 300;

export function createPreferencesStore(http: HttpClient, writeDelayMs = WRITE_DELAY_MS): PreferencesStore {
  let status: PreferenceStatus = 'loading';
  let values: Record<string, unknown> = {};
  let loading: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const pending = new Map<string, { value: unknown; removed: boolean }>();
  const inFlight = new Set<Promise<unknown>>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const emit = () => {
    for (const listener of listeners) listener();
  };

  const send = (key: string, change: { value: unknown; removed: boolean }) => {
    const path = `${PREFERENCES_PATH}/${encodeURIComponent(key)}`;
    const request = (
      change.removed
        ? http.request(path, { method: 'DELETE', kind: 'silent' })
        : http.request(path, { method: 'PUT', body: { value: change.value }, kind: 'silent' })
    )
      // Losing a column choice is not worth an error dialog; the next change tries again.
      .catch(() => undefined)
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const changes = [...pending];
    pending.clear();
    for (const [key, change] of changes) send(key, change);
    await Promise.all([...inFlight]);
  };

  const schedule = (key: string, change: { value: unknown; removed: boolean }) => {
    pending.set(key, change);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void flush(), writeDelayMs);
  };

  return {
    status: () => status,
    get: (key) => values[key],
    set(key, value) {
      values = { ...values, [key]: value };
      schedule(key, { value, removed: false });
      emit();
    },
    remove(key) {
      if (!(key in values)) return;
      const { [key]: _removed, ...rest } = values;
      values = rest;
      schedule(key, { value: null, removed: true });
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load() {
      loading ??= http
        .request<{ data?: unknown }>(PREFERENCES_PATH, { kind: 'silent' })
        .then((body) => {
          const data = body.data;
          // What the user changed while the answer was on its way wins over the stored value.
          const stored = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
          values = { ...(stored as Record<string, unknown>), ...values };
          status = 'ready';
        })
        .catch(() => {
          status = 'failed';
        })
        .finally(emit);
      return loading;
    },
    flush,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
