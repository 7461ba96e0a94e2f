/**
 * The tab bar's state: the screen shown joins the open tabs (with its query, kept up to date);
 * closing navigates to a neighbour when the shown tab goes; the list is stored in the user's
 * preferences (`admin:tabs`) and restored after a reload or in another browser.
 */
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { type OpenTab, readTabs, TABS_KEY } from '../../preferences/keys';
import { usePreference, usePreferencesSettled } from '../../preferences/PreferencesContext';
import * as ops from './open-tabs';

export interface OpenTabs {
  tabs: OpenTab[];
  current: string;
  /** Where a tab (or a menu entry) leads: the screen with the query it was left at. */
  hrefOf(path: string): string;
  select(path: string): void;
  close(path: string): void;
  closeOthers(path: string): void;
  closeAll(): void;
}

export function useOpenTabs(permissions: readonly string[]): OpenTabs {
  const location = useLocation();
  const navigate = useNavigate();
  const current = ops.normalisePath(location.pathname);
  const here: OpenTab | null = ops.tabAllowed(current, permissions)
    ? { path: current, search: location.search }
    : null;

  const [tabs, setTabs] = useState<OpenTab[]>(() =>
    here ? ops.visit([ops.HOME_TAB], here) : [ops.HOME_TAB],
  );
  const settled = usePreferencesSettled();
  const [stored, setStored] = usePreference(TABS_KEY, readTabs);
  const [restored, setRestored] = useState(false);

  const herePath = here?.path;
  const hereSearch = here?.search;
  useEffect(() => {
    if (herePath !== undefined && hereSearch !== undefined)
      setTabs((t) => ops.visit(t, { path: herePath, search: hereSearch }));
  }, [herePath, hereSearch]);

  useEffect(() => {
    if (!settled || restored) return;
    setRestored(true);
    setTabs((t) => ops.restore(stored ?? [], t.slice(1), permissions));
  }, [settled, restored, stored, permissions]);

  useEffect(() => {
    // Stored only once the stored list is in, so an early save cannot overwrite it.
    if (!restored) return;
    const value = tabs.filter((t) => t.path !== ops.HOME_TAB.path);
    if (JSON.stringify(value) !== JSON.stringify(stored ?? [])) setStored(value);
  }, [restored, tabs, stored, setStored]);

  const hrefOf = useCallback(
    (path: string) => {
      const tab = tabs.find((t) => t.path === path);
      return tab ? ops.href(tab) : path;
    },
    [tabs],
  );

  const select = useCallback((path: string) => navigate(hrefOf(path)), [navigate, hrefOf]);

  const close = useCallback(
    (path: string) => {
      if (path === current) navigate(ops.href(ops.neighbour(tabs, path)));
      setTabs((t) => ops.close(t, path));
    },
    [current, navigate, tabs],
  );

  const closeOthers = useCallback(
    (path: string) => {
      if (path !== current) navigate(hrefOf(path));
      setTabs((t) => ops.closeOthers(t, path));
    },
    [current, navigate, hrefOf],
  );

  const closeAll = useCallback(() => {
    if (current !== ops.HOME_TAB.path) navigate(ops.HOME_TAB.path);
    setTabs(ops.closeAll());
  }, [current, navigate]);

  return { tabs, current, hrefOf, select, close, closeOthers, closeAll };
}
