import { decide, sessionView } from '@wanxiang/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { Root } from './app/Root';
import type { RouteHandle } from './app/route-handle';
import { buildRoutes } from './app/routes';
import { createServices, startServices } from './app/services';
import './styles.css';

const services = createServices({
  storage: window.localStorage,
  flashStorage: window.sessionStorage,
  reloadPage: () => window.location.reload(),
  document,
});
startServices(services, window.sessionStorage);

const routes = buildRoutes(services);

// First visit: fetch the layout's and the screen's chunks together instead of one after the other
// (not where the guard is about to send the visitor elsewhere).
if (decide(window.location.pathname, sessionView(services.session.getSnapshot())).kind !== 'redirect') {
  for (const match of matchRoutes(routes, window.location) ?? []) {
    void (match.route.handle as RouteHandle | undefined)?.preload?.();
  }
}

const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <Root services={services}>
      <RouterProvider router={router} />
    </Root>
  </StrictMode>,
);
