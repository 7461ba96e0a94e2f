import { findPublicRoute, PUBLIC_ROUTES } from '@wanxiang/core';

export interface NavEntry {
  path: string;
  title: string;
}

/** The public screens one can open without an id: core's route table minus parameters. */
export const PUBLIC_NAV: readonly NavEntry[] = PUBLIC_ROUTES.filter(
  (r) => r.screen && !/\/:[^/?]+(\/|$)/.test(r.pattern),
).map((r) => ({ path: r.pattern.replace(/\/:[^/]+\?/g, '') || '/', title: r.title }));

/** The nav entry of the screen at `pathname`, if it has one. */
export function navEntryOf(pathname: string): NavEntry | undefined {
  const route = findPublicRoute(pathname);
  if (!route) return undefined;
  const path = route.pattern.replace(/\/:[^/]+\?/g, '') || '/';
  return PUBLIC_NAV.find((entry) => entry.path === path);
}
