/**
 * The open admin screens of the tab bar (多标签页) as plain data: which screens, in which order,
 * each with the query it was left at. 首页 is always first and cannot be closed.
 */
import { ADMIN_HOME_PATH, can, findAdminRoute } from '@wanxiang/core';
import type { OpenTab } from '../../preferences/keys';

export const HOME_TAB: OpenTab = { path: ADMIN_HOME_PATH, search: '' };
export const HOME_TITLE = '首页';
/** More than this and the oldest (not the current one) closes. */
export const MAX_TABS = 20;

export const normalisePath = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

export function tabTitle(path: string): string {
  return path === ADMIN_HOME_PATH ? HOME_TITLE : (findAdminRoute(path)?.title ?? path);
}

/** A screen a tab may show: 首页, or an admin route (exactly) the user may read. */
export function tabAllowed(path: string, permissions: readonly string[]): boolean {
  if (path === ADMIN_HOME_PATH) return true;
  const route = findAdminRoute(path);
  return !!route && `/admin/${route.pattern}` === path && can(permissions, route.area, 'read');
}

/** The screen now shown: opened at the end, or brought up to date where it is. */
export function visit(tabs: readonly OpenTab[], tab: OpenTab): OpenTab[] {
  const index = tabs.findIndex((t) => t.path === tab.path);
  if (index >= 0) {
    if (tabs[index]?.search === tab.search) return tabs as OpenTab[];
    return tabs.map((t, i) => (i === index ? tab : t));
  }
  const next = [...tabs, tab];
  while (next.length > MAX_TABS) {
    const oldest = next.findIndex((t) => t.path !== HOME_TAB.path && t.path !== tab.path);
    next.splice(oldest, 1);
  }
  return next;
}

export function close(tabs: readonly OpenTab[], path: string): OpenTab[] {
  return path === HOME_TAB.path ? (tabs as OpenTab[]) : tabs.filter((t) => t.path !== path);
}

export function closeOthers(tabs: readonly OpenTab[], path: string): OpenTab[] {
  return tabs.filter((t) => t.path === HOME_TAB.path || t.path === path);
}

export function closeAll(): OpenTab[] {
  return [HOME_TAB];
}

/** Where to go when the shown tab closes: its right neighbour, else its left one. */
export function neighbour(tabs: readonly OpenTab[], path: string): OpenTab {
  const index = tabs.findIndex((t) => t.path === path);
  return tabs[index + 1] ?? tabs[index - 1] ?? HOME_TAB;
}

/**
 * The tabs after a reload: 首页, the stored ones the user may still open, and the screen the
 * page opened on (with its own query, which wins over the stored one).
 */
export function restore(
  stored: readonly OpenTab[],
  current: readonly OpenTab[],
  permissions: readonly string[],
): OpenTab[] {
  let tabs: OpenTab[] = [HOME_TAB];
  for (const tab of stored) {
    if (tabAllowed(tab.path, permissions) && !tabs.some((t) => t.path === tab.path)) tabs.push(tab);
  }
  for (const tab of current) tabs = visit(tabs, tab);
  return tabs;
}

export function href(tab: OpenTab): string {
  return `${tab.path}${tab.search}`;
}
