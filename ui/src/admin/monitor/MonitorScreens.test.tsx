/**
 * The admin monitoring screens in the real app against msw: monitor/job's board draws every job's
 * bar from the admin runs route, runs the resource's actions and opens the shared detail; the
 * route's registry lists follow as tabs. monitor/ssl counts certificate jobs by status, runs
 * checkNow and shows the chain last seen.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, renderApp, server } from '../../test/harness';

const OPERATOR = {
  id: 9,
  username: 'mon',
  nickname: '运维',
  roles: ['operator'],
  permissions: ['monitor:read', 'monitor:write'],
};
const AT = '2026-11-26T08:00:00.000Z';
const at = (minute: number) => new Date(Date.parse(AT) + minute * 60_000).toISOString();
const ok = (data: unknown) => HttpResponse.json({ success: true, data });
const list = (results: unknown[]) => ok({ results, page: { total: results.length, page: 1, limit: 20 } });

function signedIn() {
  window.localStorage.setItem('token', 'token-of-mon');
  server.use(http.get(`${API}/api/user/current`, () => ok(OPERATOR)));
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' });
  await Promise.all([import('../AdminLayout'), import('./MonitorJobScreen'), import('./MonitorSslScreen')]);
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('admin monitoring screens', { timeout: 30_000 }, () => {
  it('monitor/job: everyone’s jobs with their bars, 立即检查 through the resource action, the detail, the lists as tabs', async () => {
    signedIn();
    const actions: string[] = [];
    const job = {
      id: 4,
      createdAt: AT,
      updatedAt: AT,
      name: '官网',
      ownerId: 2,
      kind: 'browser',
      url: 'https://www.example.com/',
      status: 'up',
      lastCheckAt: at(0),
      lastLatencyMs: 88,
      screenshot: '/api/files/12',
    };
    server.use(
      http.get(`${API}/api/admin/monitorJobs`, () => list([job])),
      http.get(`${API}/api/admin/monitorJobs/:id/runs`, () =>
        ok({
          results: [
            { id: 3, status: 'down', at: at(0), latencyMs: null, message: '超时' },
            { id: 2, status: 'up', at: at(-1), latencyMs: 80 },
            { id: 1, status: 'up', at: at(-2), latencyMs: 82 },
          ],
        }),
      ),
      http.get(`${API}/api/admin/monitorJobs/:id/uptime`, () => ok({ h24: 66.67, d7: 90, d30: 97.5 })),
      http.get(`${API}/api/admin/monitorJobs/:id/stats`, () =>
        ok({ range: '24h', uptime: 66.67, avgMs: 81, p50Ms: 80, p95Ms: 82, p99Ms: 82, points: [] }),
      ),
      http.post(`${API}/api/admin/monitorJobs/:id/:action`, ({ params }) => {
        actions.push(`${params.id}/${params.action}`);
        return ok({ ...job, status: 'down' });
      }),
    );
    renderApp('/admin/monitor/job');
    const name = await screen.findByRole('button', { name: '官网' });
    const row = within(name.closest('tr') as HTMLElement);
    await waitFor(() =>
      expect(row.getByRole('img', { name: /最近/ }).getAttribute('data-beats')).toBe('uud'),
    );
    expect(row.getByText('66.67%')).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: '立即检查' }));
    await waitFor(() => expect(actions).toEqual(['4/runNow']));
    await waitFor(() => expect(row.getByText('故障')).toBeTruthy());
    fireEvent.click(name);
    const detail = within(await screen.findByTestId('job-detail'));
    expect(await detail.findByText('97.5%')).toBeTruthy();
    expect(detail.getByAltText('官网 的页面截图')).toBeTruthy();
    // The registry's lists of the route, with the generic features.
    const tabs = within(document.querySelector('.wx-monitor-screen') as HTMLElement);
    expect(tabs.getByRole('tab', { name: '任务看板' })).toBeTruthy();
    expect(tabs.getByRole('tab', { name: '监控任务' })).toBeTruthy();
    expect(tabs.getByRole('tab', { name: '检查记录' })).toBeTruthy();
  });

  it('monitor/ssl: counts by status, 立即检测 through checkNow, and the chain last seen', async () => {
    signedIn();
    const actions: string[] = [];
    const row = {
      id: 7,
      createdAt: AT,
      updatedAt: AT,
      host: 'mail.example.com',
      port: 25,
      starttls: 'smtp',
      status: 'expiring',
      verdict: 'expiring',
      daysLeft: 5,
      notAfter: '2026-12-01T00:00:00.000Z',
      issuer: 'CN=Test CA',
      lastCheckAt: AT,
      chain: [
        {
          subject: 'CN=mail.example.com',
          issuer: 'CN=Test CA',
          sans: ['DNS:mail.example.com'],
          notBefore: '2026-09-01T00:00:00.000Z',
          notAfter: '2026-12-01T00:00:00.000Z',
          fingerprint256: 'AA:BB',
          serialNumber: '0F',
          keyType: 'RSA',
          keySize: 2048,
          selfSigned: false,
        },
      ],
    };
    server.use(
      http.get(`${API}/api/admin/sslJobs`, ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        if (status === 'expiring') return ok({ results: [row], page: { total: 3, page: 1, limit: 1 } });
        if (status) return ok({ results: [], page: { total: 0, page: 1, limit: 1 } });
        return list([row]);
      }),
      http.post(`${API}/api/admin/sslJobs/:id/:action`, ({ params }) => {
        actions.push(`${params.id}/${params.action}`);
        return ok({ ...row, daysLeft: 4 });
      }),
    );
    renderApp('/admin/monitor/ssl');
    const host = await screen.findByText('mail.example.com:25');
    const tr = within(host.closest('tr') as HTMLElement);
    expect(tr.getByText('SMTP')).toBeTruthy();
    expect(tr.getByText('5 天')).toBeTruthy();
    const counts = within(screen.getByRole('list', { name: '按状态统计' }));
    await waitFor(() =>
      expect(counts.getByText('即将到期').closest('.wx-monitor-count')?.textContent).toBe('即将到期3 个'),
    );
    fireEvent.click(tr.getByRole('button', { name: '立即检测' }));
    await waitFor(() => expect(actions).toEqual(['7/checkNow']));
    await waitFor(() => expect(tr.getByText('4 天')).toBeTruthy());
    fireEvent.click(tr.getByRole('button', { name: /展开/ }));
    expect(await screen.findByText('RSA 2048 位')).toBeTruthy();
    const tabs = within(document.querySelector('.wx-monitor-screen') as HTMLElement);
    expect(tabs.getByRole('tab', { name: '证书任务' })).toBeTruthy();
  });
});
