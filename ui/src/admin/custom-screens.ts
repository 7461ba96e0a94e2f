/**
 * The screen of each custom admin route (core's ADMIN_ROUTES with `screen: 'custom'`, pattern →
 * its lazy chunk). A custom route not listed here shows the frame with its title (AdminScreen).
 * Each screen is its own chunk: the first list of the back office loads none of them.
 */

import type { ComponentType } from 'react';
import { type LazyScreen, lazyScreen } from '../screens/lazy-screen';
import { CUSTOM_SCREEN_EXTRA_DEFINITIONS } from './custom-screen-definitions';

/**
 * A custom screen's chunk, fetched with the definitions of its route (and what they point at)
 * and any extra ones it declares: the screen reads them synchronously (resources/definitions.ts,
 * itself loaded on demand: this table is part of the router, in every page's first JavaScript).
 */
const screen = (pattern: string, load: () => Promise<{ default: ComponentType<object> }>) =>
  lazyScreen(load, async () => {
    const { loadDefinitions, routeListings } = await import('../resources/definitions');
    await Promise.all([
      routeListings(pattern),
      loadDefinitions(CUSTOM_SCREEN_EXTRA_DEFINITIONS[pattern] ?? []),
    ]);
  });

// One import for the three API-market screens: one preload list in the entry, not three.
const apiMarket = () => import('./api-market/screens');

export const ADMIN_CUSTOM_SCREENS: Readonly<Record<string, LazyScreen<object>>> = {
  // Each area adds its screen below, one line each.
  'OMS/income': screen('OMS/income', () => import('./income/IncomeScreen')),
  'OMS/order': screen('OMS/order', () => import('./orders/OrderBoard')),
  'runner/dispatch': screen('runner/dispatch', () => import('./dispatch/DispatchBoard')),
  'monitor/job': screen('monitor/job', () => import('./monitor/MonitorJobScreen')),
  'monitor/ssl': screen('monitor/ssl', () => import('./monitor/MonitorSslScreen')),
  'cloud/cdn/usage': screen('cloud/cdn/usage', () => import('./cdn/CdnUsageScreen')),
  'api-market/api': screen('api-market/api', () => apiMarket().then((m) => ({ default: m.ApiScreen }))),
  'api-market/order': screen('api-market/order', () =>
    apiMarket().then((m) => ({ default: m.ApiOrderScreen })),
  ),
  'api-market/user-api-key': screen('api-market/user-api-key', () =>
    apiMarket().then((m) => ({ default: m.ApiKeyScreen })),
  ),
  'wechat/merchant': screen('wechat/merchant', () => import('./merchant/MerchantReviewScreen')),
  'sys-config/old': screen('sys-config/old', () => import('./platform/ConfigVersionsScreen')),
  'bbs/review': screen('bbs/review', () => import('./community/ReviewScreen')),
  'bbs/wechat': screen('bbs/wechat', () => import('./community/ChatBotScreen')),
};

/** The screen for a custom route's pattern, when one exists. */
export function adminCustomScreenOf(pattern: string): LazyScreen<object> | undefined {
  return Object.hasOwn(ADMIN_CUSTOM_SCREENS, pattern) ? ADMIN_CUSTOM_SCREENS[pattern] : undefined;
}
