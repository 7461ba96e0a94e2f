/**
 * The list's parts that load on demand (see dialogs.ts) — the dialogs, the date picker, the number
 * inputs of range filters — and a way to fetch the dialogs ahead.
 */
import { lazy } from 'react';

const loadDialogs = () => import('./dialogs');

export const ResourceForm = lazy(() => loadDialogs().then((m) => ({ default: m.ResourceForm })));
export const ActionInputModal = lazy(() => loadDialogs().then((m) => ({ default: m.ActionInputModal })));
export const RecordDrawer = lazy(() => loadDialogs().then((m) => ({ default: m.RecordDrawer })));
export const DateRangeFilter = lazy(() => import('./DateRangeFilter'));
export const NumberRangeFilter = lazy(() => import('./NumberRangeFilter'));

/** Once the list is on screen: the dialogs are likely next, fetch them while the user reads. */
export function prefetchDialogs(): void {
  const start = () => void loadDialogs().catch(() => undefined);
  if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 3000 });
  else setTimeout(start, 1000);
}
