/**
 * The screens of their own (core's route table: `screen: 'custom'`), each a lazy chunk of its own.
 * A custom route without one here shows its title (AdminScreen) until its screen arrives.
 */
import { type LazyScreen, lazyScreen } from '../screens/lazy-screen';

const SCREENS: Record<string, LazyScreen<object>> = {
  'OMS/order': lazyScreen(() => import('./orders/OrderBoard')),
  'runner/dispatch': lazyScreen(() => import('./dispatch/DispatchBoard')),
};

export function customScreenOf(pattern: string): LazyScreen<object> | undefined {
  return SCREENS[pattern];
}
