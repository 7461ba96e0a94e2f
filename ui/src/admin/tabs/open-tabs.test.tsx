/** The tab bar's list as data: opening, updating, closing, and what a reload brings back. */
import { describe, expect, it } from 'vitest';
import {
  close,
  closeAll,
  closeOthers,
  HOME_TAB,
  MAX_TABS,
  neighbour,
  restore,
  tabAllowed,
  visit,
} from './open-tabs';

const OPS = ['oms:read', 'oms:write', 'system:read'];
const tab = (path: string, search = '') => ({ path, search });

describe('open tabs', () => {
  it('opens a screen at the end and keeps its latest query where it is', () => {
    let tabs = visit([HOME_TAB], tab('/admin/OMS/store'));
    tabs = visit(tabs, tab('/admin/OMS/good'));
    tabs = visit(tabs, tab('/admin/OMS/store', '?q=国贸'));
    expect(tabs).toEqual([HOME_TAB, tab('/admin/OMS/store', '?q=国贸'), tab('/admin/OMS/good')]);
  });

  it('closes the oldest screen past the limit, never 首页 nor the one just opened', () => {
    let tabs = [HOME_TAB];
    for (let i = 0; i < MAX_TABS + 3; i++) tabs = visit(tabs, tab(`/admin/x${i}`));
    expect(tabs).toHaveLength(MAX_TABS);
    expect(tabs[0]).toEqual(HOME_TAB);
    expect(tabs.at(-1)).toEqual(tab(`/admin/x${MAX_TABS + 2}`));
    expect(tabs.some((t) => t.path === '/admin/x0')).toBe(false);
  });

  it('closes one, the others or all; 首页 stays; the next shown is the right neighbour, else the left', () => {
    const tabs = [HOME_TAB, tab('/admin/a'), tab('/admin/b'), tab('/admin/c')];
    expect(close(tabs, HOME_TAB.path)).toEqual(tabs);
    expect(close(tabs, '/admin/b')).toEqual([HOME_TAB, tab('/admin/a'), tab('/admin/c')]);
    expect(closeOthers(tabs, '/admin/b')).toEqual([HOME_TAB, tab('/admin/b')]);
    expect(closeAll()).toEqual([HOME_TAB]);
    expect(neighbour(tabs, '/admin/b')).toEqual(tab('/admin/c'));
    expect(neighbour(tabs, '/admin/c')).toEqual(tab('/admin/b'));
  });

  it('restores only screens that exist and the user may read, with the opening screen’s own query', () => {
    const stored = [
      tab('/admin/OMS/store', '?q=旧'),
      tab('/admin/blog/article'),
      tab('/admin/no/such/screen'),
      tab('/admin/OMS/good', '?page=2'),
    ];
    const tabs = restore(stored, [tab('/admin/OMS/store', '?q=新')], OPS);
    expect(tabs).toEqual([HOME_TAB, tab('/admin/OMS/store', '?q=新'), tab('/admin/OMS/good', '?page=2')]);
    expect(tabAllowed('/admin/OMS/order', OPS)).toBe(true);
    expect(tabAllowed('/admin/law/doc', OPS)).toBe(false);
  });
});
