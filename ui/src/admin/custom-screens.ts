/**
 * The screen of each custom admin route (core's ADMIN_ROUTES with `screen: 'custom'`, pattern →
 * its lazy chunk). A custom route not listed here shows the frame with its title (AdminScreen).
 * Each screen is its own chunk: the first list of the back office loads none of them.
 */
import { type LazyScreen, lazyScreen } from '../screens/lazy-screen';

export const ADMIN_CUSTOM_SCREENS: Readonly<Record<string, LazyScreen<object>>> = {
  // Each area adds its screen below, one line each.
  'OMS/income': lazyScreen(() => import('./income/IncomeScreen')),
  'OMS/order': lazyScreen(() => import('./orders/OrderBoard')),
  'runner/dispatch': lazyScreen(() => import('./dispatch/DispatchBoard')),
  'monitor/job': lazyScreen(() => import('./monitor/MonitorJobScreen')),
  'monitor/ssl': lazyScreen(() => import('./monitor/MonitorSslScreen')),
  'bbs/review': lazyScreen(() => import('./community/ReviewScreen')),
  'bbs/wechat': lazyScreen(() => import('./community/ChatBotScreen')),
};

/** The screen for a custom route's pattern, when one exists. */
export function adminCustomScreenOf(pattern: string): LazyScreen<object> | undefined {
  return Object.hasOwn(ADMIN_CUSTOM_SCREENS, pattern) ? ADMIN_CUSTOM_SCREENS[pattern] : undefined;
}
