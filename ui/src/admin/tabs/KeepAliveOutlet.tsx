/**
 * The admin layout's outlet for the tab bar: every open screen stays mounted inside React's
 * `<Activity>` — shown, or hidden with its state (filters, rows, open drawers, scroll position)
 * kept — and comes back as it was left. A screen whose tab closes is unmounted. Screens whose
 * route has a loader (the server monitor) are not kept: their data belongs to the router's
 * current match only.
 */
import { Activity, type ReactNode, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useMatches, useOutlet } from 'react-router-dom';
import type { RouteHandle } from '../../app/route-handle';
import type { OpenTab } from '../../preferences/keys';
import { Loading } from '../../screens/Loading';
import { normalisePath } from './open-tabs';
import { ScreenLocationProvider } from './screen-location';

export function KeepAliveOutlet({ tabs }: { tabs: readonly OpenTab[] }) {
  const outlet = useOutlet();
  const location = useLocation();
  const matches = useMatches();
  const current = normalisePath(location.pathname);
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const keep = handle?.keepAlive !== false;

  // Rendered screens by path, in the order they were opened (a Map keeps insertion order, so a
  // screen's position and with it its React identity never change).
  const cache = useRef(new Map<string, ReactNode>());
  const open = new Set(tabs.map((t) => t.path));
  for (const path of cache.current.keys()) {
    if (path !== current && !open.has(path)) cache.current.delete(path);
  }
  if (keep) cache.current.set(current, outlet);
  else cache.current.delete(current);

  // Each screen's scroll position, restored when it is shown again.
  const scroll = useRef(new Map<string, number>());
  const currentRef = useRef(current);
  currentRef.current = current;
  useEffect(() => {
    const onScroll = () => scroll.current.set(currentRef.current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    window.scrollTo(0, scroll.current.get(current) ?? 0);
  }, [current]);

  const screens = [...cache.current];
  if (!keep) screens.push([current, outlet]);
  return screens.map(([path, element]) => {
    const active = path === current;
    const search = active ? location.search : (tabs.find((t) => t.path === path)?.search ?? '');
    return (
      <Activity key={path} mode={active ? 'visible' : 'hidden'}>
        <ScreenLocationProvider value={{ path, active, search }}>
          {/* One boundary per screen: a screen whose chunk is on its way shows Loading... alone. */}
          <Suspense fallback={<Loading />}>{element}</Suspense>
        </ScreenLocationProvider>
      </Activity>
    );
  });
}
