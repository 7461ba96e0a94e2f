/** Route access (spec §2, §4, §5, §6) as the pure function the UI's guards call. */
import { describe, expect, it } from 'vitest';
import {
  type CurrentUser,
  type Decision,
  decide,
  hasAdminAccess,
  permissionsOf,
  type SessionView,
} from '../src/index';

function userWith(roles: string[], permissions: string[] = permissionsOf(roles)): CurrentUser {
  return { id: 1, username: 'u', nickname: 'u', roles, permissions };
}

const signedOut: SessionView = { signedIn: false, user: null };
const loading: SessionView = { signedIn: true, user: null };
const as = (roles: string[], permissions?: string[]): SessionView => ({
  signedIn: true,
  user: userWith(roles, permissions),
});
const admin = as(['admin']);
const editor = as(['editor']);
const operator = as(['operator']);

const allow: Decision = { kind: 'allow' };
// The login comes back to the protected page that asked for it.
const toScanLogin: Decision = { kind: 'redirect', to: '/scan_login', returnHere: true };
const toAdminLogin: Decision = { kind: 'redirect', to: '/admin/login' };
const toAdmin: Decision = { kind: 'redirect', to: '/admin' };
const eject: Decision = { kind: 'eject', message: '你没有任何权限！即将退出登录' };
const forbidden: Decision = { kind: 'forbidden' };

// Spec §2 "Public routes": a concrete path for each row, and whether it needs a login.
// /cloud/api's login is "not shown" in the spec; it has no screen and stays open.
const publicRoutes: [path: string, loginNeeded: boolean][] = [
  ['/', false],
  ['/article/42', false],
  ['/photo', false],
  ['/doc/category', false],
  ['/doc/search', false],
  ['/doc/detail/7', true],
  ['/doc/detail/7/3', true],
  ['/doc/list', false],
  ['/doc/list/5', false],
  ['/music', true],
  ['/movie', false],
  ['/movie/9', true],
  ['/job', true],
  ['/ssl', true],
  ['/color', false],
  ['/merchant_join', false],
  ['/cloud/api', false],
  ['/tool/google_code', false],
];

describe('decide: public routes', () => {
  it.each(publicRoutes)('%s signed out → %s', (path, loginNeeded) => {
    expect(decide(path, signedOut)).toEqual(loginNeeded ? toScanLogin : allow);
  });

  it.each(publicRoutes)('%s signed in → allow, even while the user loads', (path) => {
    expect(decide(path, admin)).toEqual(allow);
    expect(decide(path, loading)).toEqual(allow);
    // A role-less user may still use the public site.
    expect(decide(path, as([]))).toEqual(allow);
  });

  it('the login screens and unknown public paths are open', () => {
    for (const path of ['/scan_login', '/no/such/page', '/doc/detail', '/movie/9/extra']) {
      expect(decide(path, signedOut)).toEqual(allow);
    }
  });

  it('trailing slashes do not open a protected route', () => {
    expect(decide('/music/', signedOut)).toEqual(toScanLogin);
    expect(decide('/doc/detail/7/', signedOut)).toEqual(toScanLogin);
    expect(decide('/job//', signedOut)).toEqual(toScanLogin);
    expect(decide('/photo/', signedOut)).toEqual(allow);
  });

  it('a malformed percent-escape in a path does not throw', () => {
    expect(decide('/article/%E0%A4%A', signedOut)).toEqual(allow);
    expect(decide('/movie/%zz', signedOut)).toEqual(toScanLogin);
  });
});

describe('decide: /admin/login', () => {
  it('is open when signed out', () => {
    expect(decide('/admin/login', signedOut)).toEqual(allow);
    expect(decide('/admin/login/', signedOut)).toEqual(allow);
  });

  it('redirects to /admin when signed in (loaded or not)', () => {
    expect(decide('/admin/login', admin)).toEqual(toAdmin);
    expect(decide('/admin/login', loading)).toEqual(toAdmin);
    expect(decide('/admin/login/', admin)).toEqual(toAdmin);
  });
});

describe('decide: admin routes', () => {
  const adminPaths = [
    '/admin',
    '/admin/',
    '/admin/OMS/order',
    '/admin/law/doc/category',
    '/admin/no-such-screen',
  ];

  it.each(adminPaths)('%s signed out → /admin/login', (path) => {
    expect(decide(path, signedOut)).toEqual(toAdminLogin);
  });

  it.each(adminPaths)('%s while the user loads → wait', (path) => {
    expect(decide(path, loading)).toEqual({ kind: 'wait' });
  });

  it.each(adminPaths)('%s for a user without roles → eject with the spec message', (path) => {
    expect(decide(path, as([]))).toEqual(eject);
  });

  it('a user whose roles open no menu item is ejected too (spec §5: empty menu)', () => {
    // An unknown role grants nothing; write-only permissions open nothing either.
    expect(decide('/admin', as(['ghost']))).toEqual(eject);
    expect(decide('/admin/blog/article', as(['editor'], ['blog:write']))).toEqual(eject);
  });

  it('a known admin screen outside the user’s areas is forbidden', () => {
    expect(decide('/admin/OMS/order', editor)).toEqual(forbidden);
    expect(decide('/admin/runner/dispatch', editor)).toEqual(forbidden);
    expect(decide('/admin/sys-user', operator)).toEqual(forbidden);
    expect(decide('/admin/blog/article', operator)).toEqual(forbidden);
    expect(decide('/admin/OMS/order/', editor)).toEqual(forbidden);
  });

  it('a screen in the user’s areas is allowed, as is the admin index', () => {
    expect(decide('/admin', editor)).toEqual(allow);
    expect(decide('/admin/blog/article', editor)).toEqual(allow);
    expect(decide('/admin/law/doc/category', editor)).toEqual(allow);
    expect(decide('/admin/OMS/order', operator)).toEqual(allow);
    expect(decide('/admin/OMS/card', operator)).toEqual(allow);
    expect(decide('/admin/sys-user', admin)).toEqual(allow);
    expect(decide('/admin/sys-tools/monitor', as(['auditor']))).toEqual(allow);
  });

  it('an unknown admin path is allowed, so the UI can show its 404 page', () => {
    expect(decide('/admin/no-such-screen', editor)).toEqual(allow);
    expect(decide('/admin/OMS/order/123', editor)).toEqual(allow);
    // Routes are case-sensitive, as in the spec (OMS/…).
    expect(decide('/admin/oms/order', editor)).toEqual(allow);
  });

  it('/administrator is not an admin path', () => {
    expect(decide('/administrator', signedOut)).toEqual(allow);
  });
});

describe('hasAdminAccess', () => {
  it('needs a role and at least one openable menu item', () => {
    expect(hasAdminAccess(userWith(['admin']))).toBe(true);
    expect(hasAdminAccess(userWith(['auditor']))).toBe(true);
    expect(hasAdminAccess(userWith([]))).toBe(false);
    // Permissions without a role are not enough (spec §5: at least one role).
    expect(hasAdminAccess(userWith([], permissionsOf(['admin'])))).toBe(false);
    expect(hasAdminAccess(userWith(['ghost']))).toBe(false);
  });
});
