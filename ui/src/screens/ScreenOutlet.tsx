import { Suspense } from 'react';
import { Outlet, useMatches } from 'react-router-dom';
import { Loading } from './Loading';

/**
 * The outlet of a layout at route depth `level`, under a Suspense boundary keyed by the child
 * route: a screen whose chunk is not loaded yet shows Loading... even during a navigation (a
 * boundary that already showed content would otherwise keep the old screen).
 */
export function ScreenOutlet({ level }: { level: number }) {
  const matches = useMatches();
  return (
    <Suspense key={matches[level]?.id ?? 'none'} fallback={<Loading />}>
      <Outlet />
    </Suspense>
  );
}
