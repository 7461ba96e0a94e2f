/**
 * Where a screen kept in the tab bar reads its query. Every open screen stays rendered (hidden) so
 * it keeps its state, but the URL belongs to the one shown: a hidden screen sees the query it was
 * left at, frozen, instead of the shown screen's.
 */
import { createContext, type ReactNode, useCallback, useContext } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

interface ScreenLocation {
  path: string;
  active: boolean;
  /** The query this screen was left at (for a hidden screen). */
  search: string;
}

const ScreenLocationContext = createContext<ScreenLocation | null>(null);

export function ScreenLocationProvider({ value, children }: { value: ScreenLocation; children: ReactNode }) {
  return <ScreenLocationContext.Provider value={value}>{children}</ScreenLocationContext.Provider>;
}

/** Whether this screen is the one shown (true outside the tab bar). */
export function useScreenActive(): boolean {
  return useContext(ScreenLocationContext)?.active ?? true;
}

/** The screen's query (`?…` or '') and a way to change it (a new history entry). */
export function useScreenSearch(): [string, (search: string) => void] {
  const screen = useContext(ScreenLocationContext);
  const location = useLocation();
  const navigate = useNavigate();
  const hidden = screen !== null && !screen.active;
  const search = hidden ? screen.search : location.search;
  const path = screen?.path ?? location.pathname;
  const setSearch = useCallback(
    (next: string) => {
      // A hidden screen does not steer the page.
      if (!hidden) navigate({ pathname: path, search: next });
    },
    [hidden, navigate, path],
  );
  return [search, setSearch];
}
