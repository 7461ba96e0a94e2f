import { decide, sessionView } from '@wanxiang/core';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { waitFor } from 'xstate';
import type { Services } from '../app/services';

/**
 * A route loader that runs only where the Guard would show the screen. Loaders run before any
 * element renders, so without this a signed-out visit would call the API, get a 401 and reload.
 * It waits while the current user loads; otherwise resolves null and leaves the page to the Guard.
 */
export function guardedLoader<T>(
  services: Services,
  load: (args: LoaderFunctionArgs) => Promise<T>,
): (args: LoaderFunctionArgs) => Promise<T | null> {
  return async (args) => {
    const { pathname } = new URL(args.request.url);
    const settled = await waitFor(
      services.session,
      (s) => decide(pathname, sessionView(s)).kind !== 'wait' || s.matches({ signedIn: 'userFailed' }),
      { signal: args.request.signal },
    );
    if (decide(pathname, sessionView(settled)).kind !== 'allow') return null;
    return load(args);
  };
}
