/**
 * Route access as a pure function (spec §2, §4, §5, §6): the UI's guards and the tests both call
 * it. A stored token counts as signed in; admin routes also need the loaded user to have a role
 * and a non-empty menu.
 */
import type { CurrentUser } from '../contract/envelope';
import { messages } from '../i18n/zh-CN';
import { hasOpenableItem, visibleMenu } from '../navigation/menu';
import {
  ADMIN_HOME_PATH,
  ADMIN_LOGIN_PATH,
  findAdminRoute,
  findPublicRoute,
  SCAN_LOGIN_PATH,
} from '../navigation/routes';

export interface SessionView {
  signedIn: boolean;
  /** null while the current user is loading (or signed out). */
  user: CurrentUser | null;
}

export type Decision =
  | { kind: 'allow' }
  /**
   * `returnHere`: the login `to` leads to should come back to this path (spec §2: /scan_login
   * returns to the remembered public path, and a protected route's own path counts).
   */
  | { kind: 'redirect'; to: string; returnHere?: true }
  /** Signed in but the user is still loading: show Loading... */
  | { kind: 'wait' }
  /** Spec §5: show the message, sign out, go to /admin/login. */
  | { kind: 'eject'; message: string }
  /** A known admin screen whose area the user may not read. */
  | { kind: 'forbidden' };

export function hasAdminAccess(user: CurrentUser): boolean {
  return user.roles.length > 0 && hasOpenableItem(visibleMenu(user.permissions));
}

export function decide(pathname: string, session: SessionView): Decision {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;

  if (path === ADMIN_LOGIN_PATH) {
    return session.signedIn ? { kind: 'redirect', to: ADMIN_HOME_PATH } : { kind: 'allow' };
  }
  if (path === ADMIN_HOME_PATH || path.startsWith(`${ADMIN_HOME_PATH}/`)) {
    if (!session.signedIn) return { kind: 'redirect', to: ADMIN_LOGIN_PATH };
    if (!session.user) return { kind: 'wait' };
    if (!hasAdminAccess(session.user)) return { kind: 'eject', message: messages.noPermission };
    const route = findAdminRoute(path);
    if (route && !session.user.permissions.includes(`${route.area}:read`)) return { kind: 'forbidden' };
    return { kind: 'allow' };
  }
  const route = findPublicRoute(path);
  if (route?.requiresLogin && !session.signedIn) {
    return { kind: 'redirect', to: SCAN_LOGIN_PATH, returnHere: true };
  }
  return { kind: 'allow' };
}
