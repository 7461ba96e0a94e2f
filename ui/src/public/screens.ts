/**
 * The screen of each public route (core's PUBLIC_ROUTES pattern → its lazy chunk). A route not
 * listed here shows the plain frame with its title (PublicScreen). Each screen is its own chunk,
 * so a visitor loads only the screen they open; none of them may import admin code.
 */
import { type LazyScreen, lazyScreen } from '../screens/lazy-screen';

export const PUBLIC_SCREENS: Readonly<Record<string, LazyScreen<object>>> = {
  // Each area adds its routes below, one line each, e.g.
  // '/color': lazyScreen(() => import('./color/ColorTool')),
};

/** The screen for a pattern, when one exists. */
export function publicScreenOf(pattern: string): LazyScreen<object> | undefined {
  return Object.hasOwn(PUBLIC_SCREENS, pattern) ? PUBLIC_SCREENS[pattern] : undefined;
}
