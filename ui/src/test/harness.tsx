/**
 * Component tests render the real route table and services against msw: the API is the only
 * thing replaced.
 */
import { render } from '@testing-library/react';
import { HttpResponse, http, ws } from 'msw';
import { setupServer } from 'msw/node';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { Root } from '../app/Root';
import { buildRoutes } from '../app/routes';
import { createServices, type Services, startServices } from '../app/services';

export const API = 'http://api.test';

export const USERS = {
  admin: {
    id: 1,
    username: 'admin',
    nickname: '管理员',
    roles: ['admin'],
    permissions: ['system:read', 'blog:read'],
  },
  editor: {
    id: 2,
    username: 'editor',
    nickname: '编辑',
    roles: ['editor'],
    permissions: ['blog:read', 'blog:write'],
  },
  guest: { id: 3, username: 'guest', nickname: null, roles: [], permissions: [] },
};

/**
 * Screens with live news (the order board, dispatch, monitoring) open `/ws`. Without a handler
 * jsdom's WebSocket really connects out, and a socket still connecting when the worker exits
 * aborts the process (libuv: uv__stream_destroy assertion) — seen in CI as "Worker exited
 * unexpectedly" after every test of the file had passed. This one accepts and stays silent (the
 * screens then poll, as behind a proxy without WebSocket); tests that push news add their own.
 */
const quietSocket = ws.link(/\/ws$/).addEventListener('connection', () => {});

export const server = setupServer(
  quietSocket,
  http.get(`${API}/api/public/config`, () =>
    HttpResponse.json({
      success: true,
      data: {
        productName: '万象',
        pageTitle: '万象测试站',
        copyright: '',
        version: 'test',
        wsHost: '',
        apiHost: '',
        allowRegistration: false,
      },
    }),
  ),
  http.get(`${API}/api/captcha/request`, () =>
    HttpResponse.json({
      success: true,
      captchaId: `c-${Math.random()}`,
      data: `data:image/svg+xml;base64,${btoa(String(Math.random()))}`,
    }),
  ),
  http.get(`${API}/api/login/signout`, () => HttpResponse.json({ success: true, data: null })),
  // The back office loads the user's preferences (tabs, columns …); none stored by default.
  http.get(`${API}/api/me/preferences`, () => HttpResponse.json({ success: true, data: {} })),
  http.put(`${API}/api/me/preferences/:key`, () => HttpResponse.json({ success: true, data: null })),
  http.delete(`${API}/api/me/preferences/:key`, () => HttpResponse.json({ success: true, data: null })),
  // The admin home's figures: none of the test users' areas (system, blog) has any.
  http.get(`${API}/api/admin/dashboard`, () => HttpResponse.json({ success: true, data: { at: 0 } })),
);

/** Signed in as `user` (a stored token, /api/user/current answering that user). */
export function signedInAs(user: (typeof USERS)[keyof typeof USERS]): void {
  window.localStorage.setItem('token', `token-of-${user.username}`);
  server.use(http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: user })));
}

export function makeServices(): Services & { reloadPage: ReturnType<typeof vi.fn> } {
  const reloadPage = vi.fn();
  const services = createServices({
    storage: window.localStorage,
    flashStorage: window.sessionStorage,
    reloadPage,
    document,
    baseURL: API,
  });
  return Object.assign(services, { reloadPage });
}

/** The app at `path`, as main.tsx renders it but with a memory router. */
export function renderApp(path: string, services = makeServices()) {
  startServices(services, window.sessionStorage);
  const router = createMemoryRouter(buildRoutes(services), { initialEntries: [path] });
  const view = render(
    <Root services={services}>
      <RouterProvider router={router} />
    </Root>,
  );
  return { ...view, router, services };
}
