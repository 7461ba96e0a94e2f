/**
 * The side effects the HTTP layer and the machines need, supplied by the host:
 * the browser (localStorage, antd notifications, location.reload) or the CLI (a 0600 file,
 * stderr lines, exit with a message), or memory in tests.
 */

export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  remove(): void;
}

export type NoticeLevel = 'success' | 'error' | 'warning' | 'info';

export interface Notifier {
  notify(level: NoticeLevel, message: string): void;
}

export interface HttpPorts {
  tokenStore: TokenStore;
  notifier: Notifier;
  /** Reload the page (browser) or end the command with a clear message (CLI). */
  reload(): void;
  /** Logout handling after a 401: the host's session goes to signed out. */
  onLogout(): void;
}

/** A TokenStore in memory: for tests and short-lived scripts. */
export function memoryTokenStore(initial: string | null = null): TokenStore {
  let token = initial;
  return {
    get: () => token,
    set: (value) => {
      token = value;
    },
    remove: () => {
      token = null;
    },
  };
}

/** A non-empty stored token counts as signed in (spec §4). */
export function hasToken(store: TokenStore): boolean {
  const token = store.get();
  return typeof token === 'string' && token.length > 0;
}
