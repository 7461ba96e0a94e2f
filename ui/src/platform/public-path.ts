/** The public path + query the public layout remembers (spec §2); /scan_login returns to it. */
const KEY = 'publicPath';

export function rememberPublicPath(storage: Storage, pathAndQuery: string): void {
  storage.setItem(KEY, pathAndQuery);
}

export function rememberedPublicPath(storage: Storage): string {
  const value = storage.getItem(KEY);
  // Only a same-site path: never an absolute or protocol-relative URL someone planted.
  return value?.startsWith('/') && !value.startsWith('//') ? value : '/';
}
