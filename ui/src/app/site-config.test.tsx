/** The page title and product name come from GET /api/public/config (spec §1). */
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server } from '../test/harness';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const config = (data: Record<string, unknown>) =>
  http.get(`${API}/api/public/config`, () =>
    HttpResponse.json({
      success: true,
      data: { copyright: '', version: 'x', wsHost: '', apiHost: '', allowRegistration: false, ...data },
    }),
  );

describe('site config', () => {
  it('sets document.title to pageTitle and shows the product name', async () => {
    server.use(
      config({ productName: '万象云', pageTitle: '万象云 · 内容平台', copyright: '© 2024 万象云团队' }),
    );
    renderApp('/');
    await waitFor(() => expect(document.title).toBe('万象云 · 内容平台'));
    expect(await screen.findByText('万象云')).toBeTruthy();
    expect(screen.getByText('© 2024 万象云团队')).toBeTruthy();
  });

  it('falls back to the product name when no page title is set', async () => {
    server.use(config({ productName: '万象云', pageTitle: '' }));
    renderApp('/');
    await waitFor(() => expect(document.title).toBe('万象云'));
    expect(screen.getByText('© 2024 万象云')).toBeTruthy();
  });
});
