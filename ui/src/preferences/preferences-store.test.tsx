/** The preferences client against msw: load once, write late and once per key, never toast. */
import { waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, makeServices, server } from '../test/harness';
import { createPreferencesStore } from './preferences-store';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function recordWrites() {
  const writes: { method: string; key: string; value?: unknown }[] = [];
  server.use(
    http.put(`${API}/api/me/preferences/:key`, async ({ params, request }) => {
      const { value } = (await request.json()) as { value: unknown };
      writes.push({ method: 'PUT', key: decodeURIComponent(String(params.key)), value });
      return HttpResponse.json({ success: true, data: null, message: '操作成功' });
    }),
    http.delete(`${API}/api/me/preferences/:key`, ({ params }) => {
      writes.push({ method: 'DELETE', key: decodeURIComponent(String(params.key)) });
      return HttpResponse.json({ success: true, data: null });
    }),
  );
  return writes;
}

describe('preferences store', () => {
  it('loads the stored values once; a change made meanwhile wins', async () => {
    window.localStorage.setItem('token', 't');
    let loads = 0;
    server.use(
      http.get(`${API}/api/me/preferences`, () => {
        loads++;
        return HttpResponse.json({
          success: true,
          data: { 'table:stores': { pageSize: 50 }, 'admin:tabs': [] },
        });
      }),
    );
    recordWrites();
    const services = makeServices();
    const store = createPreferencesStore(services.http, 10);
    expect(store.status()).toBe('loading');
    store.set('admin:tabs', [{ path: '/admin/OMS/store', search: '' }]);
    await Promise.all([store.load(), store.load()]);
    expect(loads).toBe(1);
    expect(store.status()).toBe('ready');
    expect(store.get('table:stores')).toEqual({ pageSize: 50 });
    expect(store.get('admin:tabs')).toEqual([{ path: '/admin/OMS/store', search: '' }]);
    await store.flush();
  });

  it('sends a burst of changes as one request per key with the last value, and toasts nothing', async () => {
    window.localStorage.setItem('token', 't');
    const writes = recordWrites();
    const services = makeServices();
    const shown: string[] = [];
    services.notices.attach((n) => shown.push(n.message));
    const store = createPreferencesStore(services.http, 10);
    store.set('table:stores', { columns: ['id'] });
    store.set('table:stores', { columns: ['id', 'name'] });
    store.set('filters:stores', [{ name: '国贸', search: '?q=国贸' }]);
    store.remove('filters:stores');
    await waitFor(() => expect(writes).toHaveLength(2));
    await store.flush();
    // The two keys go out together, in either order.
    expect(writes).toHaveLength(2);
    expect(writes).toContainEqual({ method: 'PUT', key: 'table:stores', value: { columns: ['id', 'name'] } });
    expect(writes).toContainEqual({ method: 'DELETE', key: 'filters:stores' });
    expect(shown).toEqual([]);
  });

  it('keeps working with the defaults when the server cannot be reached', async () => {
    window.localStorage.setItem('token', 't');
    server.use(
      http.get(`${API}/api/me/preferences`, () => HttpResponse.error()),
      http.put(`${API}/api/me/preferences/:key`, () => HttpResponse.error()),
    );
    const store = createPreferencesStore(makeServices().http, 10);
    await store.load();
    expect(store.status()).toBe('failed');
    store.set('table:stores', { pageSize: 100 });
    expect(store.get('table:stores')).toEqual({ pageSize: 100 });
    await expect(store.flush()).resolves.toBeUndefined();
  });
});
