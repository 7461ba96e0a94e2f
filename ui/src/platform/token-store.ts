import { TOKEN_STORAGE_KEY, type TokenStore } from '@wanxiang/core';

/** The browser's TokenStore port: localStorage under the key `token` (spec §9). */
export function browserTokenStore(storage: Storage): TokenStore {
  return {
    get: () => storage.getItem(TOKEN_STORAGE_KEY),
    set: (token) => storage.setItem(TOKEN_STORAGE_KEY, token),
    remove: () => storage.removeItem(TOKEN_STORAGE_KEY),
  };
}
