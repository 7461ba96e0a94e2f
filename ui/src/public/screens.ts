/**
 * The screen of each public route (core's PUBLIC_ROUTES pattern → its lazy chunk). A route not
 * listed here shows the plain frame with its title (PublicScreen). Each screen is its own chunk,
 * so a visitor loads only the screen they open; none of them may import admin code.
 */
import { type LazyScreen, lazyScreen } from '../screens/lazy-screen';

export const PUBLIC_SCREENS: Readonly<Record<string, LazyScreen<object>>> = {
  // Each area adds its routes below, one line each, e.g.
  // '/color': lazyScreen(() => import('./color/ColorTool')),
  '/': lazyScreen(() => import('./blog/BlogHome')),
  '/article/:id': lazyScreen(() => import('./blog/ArticlePage')),
  '/photo': lazyScreen(() => import('./photo/PhotoGallery')),
  '/doc/category': lazyScreen(() => import('./docs/DocCategory')),
  '/doc/list/:categoryId?': lazyScreen(() => import('./docs/DocList')),
  '/doc/search': lazyScreen(() => import('./docs/DocSearch')),
  '/doc/detail/:id/:page?': lazyScreen(() => import('./docs/DocDetail')),
  '/music': lazyScreen(() => import('./media/Music')),
  '/movie': lazyScreen(() => import('./media/MovieList')),
  '/movie/:id': lazyScreen(() => import('./media/MovieDetail')),
  '/color': lazyScreen(() => import('./tools/ColorTool')),
  '/tool/google_code': lazyScreen(() => import('./tools/GoogleCode')),
  '/merchant_join': lazyScreen(() => import('./merchant/MerchantJoin')),
  '/job': lazyScreen(() => import('./monitor/JobScreen')),
  '/ssl': lazyScreen(() => import('./monitor/SslScreen')),
};

/** The screen for a pattern, when one exists. */
export function publicScreenOf(pattern: string): LazyScreen<object> | undefined {
  return Object.hasOwn(PUBLIC_SCREENS, pattern) ? PUBLIC_SCREENS[pattern] : undefined;
}
