/**
 * The route table, built from core's PUBLIC_ROUTES and ADMIN_ROUTES so routing and guarding
 * cannot drift apart. Every layout and screen is its own lazy chunk: the public site never loads
 * admin code.
 */
import {
  ADMIN_HOME_PATH,
  ADMIN_LOGIN_PATH,
  ADMIN_ROUTES,
  type AdminRoute,
  type AdminScreenKind,
  fetchServerMonitor,
  PUBLIC_ROUTES,
  SCAN_LOGIN_CONFIRM_PATTERN,
  SCAN_LOGIN_PATH,
} from '@wanxiang/core';
import { Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { publicScreenOf } from '../public/screens';
import { Loading } from '../screens/Loading';
import { lazyScreen } from '../screens/lazy-screen';
import { ScreenOutlet } from '../screens/ScreenOutlet';
import { Guard } from '../session/Guard';
import { guardedLoader } from '../session/guarded-loader';
import type { RouteHandle } from './route-handle';
import type { Services } from './services';

const PublicLayout = lazyScreen(() => import('../public/PublicLayout'));
const PublicScreen = lazyScreen<{ title: string }>(() => import('../public/PublicScreen'));
const ScanLogin = lazyScreen(() => import('../login/ScanLogin'));
const ScanConfirm = lazyScreen(() => import('../login/ScanConfirm'));
const AdminLogin = lazyScreen(() => import('../login/AdminLogin'));
const AdminLayout = lazyScreen(() => import('../admin/AdminLayout'));
const AdminHome = lazyScreen(() => import('../admin/AdminHome'));
const CustomScreen = lazyScreen<{ pattern: string; title: string }>(() => import('../admin/CustomScreen'));
// One chunk for every registry-driven list screen (the registry and zod come with it).
const ResourcePage = lazyScreen<{ route: string; title: string }>(() => import('../resources/ResourcePage'));
const ServerMonitor = lazyScreen(() => import('../admin/monitor/ServerMonitor'));
const MonitorError = lazyScreen(() => import('../admin/monitor/MonitorError'));
const NotFound = lazyScreen(() => import('../screens/NotFound'));

export function buildRoutes(services: Services): RouteObject[] {
  // Each kind of admin screen core declares (AdminRoute.screen), as a route.
  const adminScreen: Record<AdminScreenKind, (route: AdminRoute) => RouteObject> = {
    serverMonitor: () => ({
      // The figures are loaded before the screen renders (spec §2), its chunk meanwhile.
      loader: guardedLoader(services, () => {
        void ServerMonitor.preload();
        return fetchServerMonitor(services.http);
      }),
      element: <ServerMonitor />,
      errorElement: <MonitorError />,
      handle: { preload: ServerMonitor.preload, keepAlive: false } satisfies RouteHandle,
    }),
    // A custom screen of its own (admin/custom-screens.ts), or the frame with the route's title;
    // the table of them loads with the first such screen, its screen right after.
    custom: (route) => ({
      element: <CustomScreen pattern={route.pattern} title={route.title} />,
      handle: {
        preload: () => import('../admin/CustomScreen').then((m) => m.preloadCustomScreen(route.pattern)),
      } satisfies RouteHandle,
    }),
    // ResourcePage decides inside its chunk what the registry lists for the route, so the route
    // table (in the entry chunk) never imports the registry.
    resource: (route) => ({
      element: <ResourcePage route={route.pattern} title={route.title} />,
      handle: { preload: ResourcePage.preload } satisfies RouteHandle,
    }),
  };
  const adminScreens: RouteObject[] = ADMIN_ROUTES.map((route) => ({
    ...adminScreen[route.screen](route),
    id: `admin:${route.pattern}`,
    path: route.pattern,
  }));

  return caseSensitive([
    {
      id: 'root',
      path: '/',
      element: (
        <Guard>
          <ScreenOutlet level={1} />
        </Guard>
      ),
      hydrateFallbackElement: <Loading />,
      errorElement: (
        <Suspense fallback={<Loading />}>
          <NotFound />
        </Suspense>
      ),
      children: [
        {
          id: 'public',
          element: <PublicLayout />,
          handle: { preload: PublicLayout.preload } satisfies RouteHandle,
          children: PUBLIC_ROUTES.map((route) => {
            // /cloud/api has no screen: the layout alone.
            const Screen = route.screen ? publicScreenOf(route.pattern) : undefined;
            return {
              id: `public:${route.pattern}`,
              path: route.pattern,
              element: Screen ? <Screen /> : route.screen ? <PublicScreen title={route.title} /> : null,
              handle: (Screen
                ? { preload: Screen.preload }
                : route.screen
                  ? { preload: PublicScreen.preload }
                  : {}) satisfies RouteHandle,
            };
          }),
        },
        {
          id: 'scan-login',
          path: SCAN_LOGIN_PATH,
          element: <ScanLogin />,
          handle: { preload: ScanLogin.preload } satisfies RouteHandle,
        },
        {
          // Opened from the QR code: confirms another device's scan login (signs in inline).
          id: 'scan-login-confirm',
          path: SCAN_LOGIN_CONFIRM_PATTERN,
          element: <ScanConfirm />,
          handle: { preload: ScanConfirm.preload } satisfies RouteHandle,
        },
        {
          id: 'admin-login',
          path: ADMIN_LOGIN_PATH,
          element: <AdminLogin />,
          handle: { preload: AdminLogin.preload } satisfies RouteHandle,
        },
        {
          id: 'admin',
          path: ADMIN_HOME_PATH,
          element: <AdminLayout />,
          handle: { preload: AdminLayout.preload } satisfies RouteHandle,
          children: [
            {
              id: 'admin:index',
              index: true,
              element: <AdminHome />,
              handle: { preload: AdminHome.preload } satisfies RouteHandle,
            },
            ...adminScreens,
          ],
        },
        {
          id: 'not-found',
          path: '*',
          element: <NotFound />,
          handle: { preload: NotFound.preload } satisfies RouteHandle,
        },
      ],
    },
  ]);
}

/**
 * Every route matches its path's case only, as core's matchPattern does (spec: OMS/…): the guard,
 * the server's 404 and the router then agree on what /admin/oms/order is (nothing).
 */
function caseSensitive(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) =>
    route.index
      ? route
      : {
          ...route,
          caseSensitive: true,
          ...(route.children ? { children: caseSensitive(route.children) } : {}),
        },
  );
}
