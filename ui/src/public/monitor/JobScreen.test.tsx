/**
 * /job in the real app against msw speaking the contract's shapes: the list with status, bar and
 * uptime (no figure for a job never checked), 立即检查, a push over /ws that flips a job and raises
 * an alert, the form (the definition's labels and rules, the server's Chinese refusal on its field),
 * the detail (uptime 24 h / 7 d / 30 d, history paged with `before`), 删除 with a confirmation.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http, ws } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, renderApp, server, signedInAs, USERS } from '../../test/harness';

const USER = USERS.guest;
const AT = '2026-11-26T08:00:00.000Z';
const at = (minute: number) => new Date(Date.parse(AT) + minute * 60_000).toISOString();

function job(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    createdAt: AT,
    updatedAt: AT,
    name: `任务${id}`,
    ownerId: USER.id,
    kind: 'http',
    url: `https://site${id}.example.com/`,
    method: 'GET',
    headers: null,
    body: null,
    intervalS: 60,
    retryIntervalS: 60,
    timeoutMs: 10_000,
    acceptedStatus: '200-299',
    keyword: null,
    invertKeyword: false,
    maxRetries: 0,
    followRedirects: true,
    ignoreTls: false,
    status: 'up',
    lastCheckAt: at(3),
    lastLatencyMs: 120,
    screenshot: null,
    uptime24h: 99.5,
    recent: [0, 1, 2, 3].map((m) => ({ status: m === 1 ? 'down' : 'up', at: at(m), latencyMs: 100 + m })),
    ...extra,
  };
}

interface Seen {
  posts: { path: string; body: unknown }[];
  deletes: string[];
  runsQueries: URLSearchParams[];
}

function api(jobs: ReturnType<typeof job>[], alerts: unknown[] = []): Seen {
  const seen: Seen = { posts: [], deletes: [], runsQueries: [] };
  const ok = (data: unknown) => HttpResponse.json({ success: true, data });
  server.use(
    http.get(`${API}/api/me/jobs`, () =>
      ok({ results: jobs, page: { total: jobs.length, page: 1, limit: 100 } }),
    ),
    http.get(`${API}/api/me/alerts`, () => ok({ results: alerts })),
    http.post(`${API}/api/me/jobs`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      seen.posts.push({ path: '/api/me/jobs', body });
      if (String(body.url).includes('127.0.0.1'))
        return HttpResponse.json(
          {
            success: false,
            errorCode: 422,
            message: '不能监控内网或本机地址',
            data: { fields: { url: '不能监控内网或本机地址（127.0.0.1）' } },
          },
          { status: 422 },
        );
      return ok({ ...job(99), ...body, status: 'pending', lastCheckAt: null, lastLatencyMs: null });
    }),
    http.post(`${API}/api/me/jobs/:id/run`, ({ params }) => {
      seen.posts.push({ path: `/api/me/jobs/${params.id}/run`, body: null });
      const run = {
        id: 500,
        status: 'down',
        at: at(10),
        latencyMs: null,
        httpStatus: 503,
        message: 'HTTP 503',
      };
      return ok({
        job: { ...job(Number(params.id)), status: 'down', lastCheckAt: at(10), lastLatencyMs: null },
        run,
      });
    }),
    http.delete(`${API}/api/me/jobs/:id`, ({ params }) => {
      seen.deletes.push(String(params.id));
      return ok(null);
    }),
    http.get(`${API}/api/me/jobs/:id/uptime`, () => ok({ h24: 97.25, d7: 98.25, d30: null })),
    http.get(`${API}/api/me/jobs/:id/stats`, ({ request }) =>
      ok({
        range: new URL(request.url).searchParams.get('range'),
        uptime: 99.5,
        avgMs: 110,
        p50Ms: 100,
        p95Ms: 180,
        p99Ms: 250,
        points: [],
      }),
    ),
    http.get(`${API}/api/me/jobs/:id/runs`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      seen.runsQueries.push(query);
      const limit = Number(query.get('limit'));
      // A first full page, then an older one of 2.
      const count = query.get('before') ? 2 : limit;
      const start = query.get('before') ? 1000 : 0;
      return ok({
        results: Array.from({ length: count }, (_, i) => ({
          id: start + i,
          status: i === 0 ? 'down' : 'up',
          httpStatus: i === 0 ? 500 : 200,
          latencyMs: 90 + i,
          message: i === 0 ? 'HTTP 500' : null,
          important: i === 0,
          at: at(-(start + i)),
        })),
      });
    }),
  );
  return seen;
}

const socket = ws.link(/\/ws$/);
type Client = Parameters<Parameters<typeof socket.addEventListener<'connection'>>[1]>[0]['client'];
let client: Client | null = null;
let subscribed: string[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await Promise.all([import('../PublicLayout'), import('./JobScreen'), import('../../monitor/LatencyChart')]);
}, 60_000);
beforeEach(() => {
  client = null;
  subscribed = [];
  server.use(
    socket.addEventListener('connection', ({ client: c }) => {
      client = c;
      c.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; topic: string };
        if (message.type === 'subscribe') {
          subscribed.push(message.topic);
          c.send(JSON.stringify({ type: 'subscribed', topic: message.topic }));
        }
      });
    }),
  );
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const rowOf = async (name: string) => {
  const cell = await screen.findByRole('button', { name });
  return cell.closest('tr') as HTMLElement;
};

describe('/job', { timeout: 30_000 }, () => {
  it('lists own jobs with status, the bar of recent checks and 24 h uptime; a job never checked shows no figures', async () => {
    signedInAs(USER);
    api([
      job(1),
      job(2, { status: 'pending', lastCheckAt: null, lastLatencyMs: null, uptime24h: null, recent: [] }),
    ]);
    renderApp('/job');
    const first = within(await rowOf('任务1'));
    expect(first.getByText('正常')).toBeTruthy();
    expect(first.getByRole('img', { name: /最近/ }).getAttribute('data-beats')).toBe(
      'udu u'.replace(' ', ''),
    );
    expect(first.getByText('99.5%')).toBeTruthy();
    expect(first.getByText('120 ms')).toBeTruthy();
    const second = within(await rowOf('任务2'));
    expect(second.getByText('待确认')).toBeTruthy();
    expect(second.getAllByText('—').length).toBeGreaterThanOrEqual(3);
    expect(second.queryByText('0%')).toBeNull();
  });

  it('立即检查 runs the job and shows its result on the row', async () => {
    signedInAs(USER);
    const seen = api([job(1)]);
    renderApp('/job');
    const row = within(await rowOf('任务1'));
    fireEvent.click(row.getByRole('button', { name: '立即检查' }));
    await waitFor(() => expect(row.getByText('故障')).toBeTruthy());
    expect(seen.posts.map((p) => p.path)).toEqual(['/api/me/jobs/1/run']);
    expect(row.getByRole('img', { name: /最近/ }).getAttribute('data-beats')).toBe('uduud');
    expect(await screen.findByText(/检查完成，任务1：故障（HTTP 503）/)).toBeTruthy();
    // The row's 24 h uptime is asked again after the check (the list said 99.5, the route 97.25).
    await waitFor(() => expect(row.getByText('97.25%')).toBeTruthy());
  });

  it('a push on monitor:user:<id> updates the row and an alert shows as a notification and in the list', async () => {
    signedInAs(USER);
    api([job(1)]);
    renderApp('/job');
    await rowOf('任务1');
    await waitFor(() => expect(subscribed).toEqual([`monitor:user:${USER.id}`]));
    await screen.findByText('实时');
    const alert = { id: 77, jobId: 1, level: 'down', message: '任务1 故障：连接被拒绝', at: at(20) };
    client?.send(
      JSON.stringify({
        topic: `monitor:user:${USER.id}`,
        data: {
          type: 'job',
          job: { id: 1, status: 'down', lastCheckAt: at(20), lastLatencyMs: null },
          run: { id: 600, status: 'down', at: at(20), latencyMs: null, message: '连接被拒绝' },
          alert,
        },
      }),
    );
    const row = within(await rowOf('任务1'));
    await waitFor(() => expect(row.getByText('故障')).toBeTruthy());
    expect(row.getByRole('img', { name: /最近/ }).getAttribute('data-beats')).toBe('uduud');
    expect(await screen.findByText('监控告警：任务1 故障：连接被拒绝')).toBeTruthy();
    const list = within(screen.getByRole('region', { name: '最近告警' }));
    expect(list.getByText('任务1 故障：连接被拒绝')).toBeTruthy();
  });

  it('新建 checks the definition’s rules, sends the fields, and puts the server’s refusal on its field', async () => {
    signedInAs(USER);
    const seen = api([]);
    renderApp('/job');
    await screen.findByText(/还没有监控任务/);
    fireEvent.click(screen.getByRole('button', { name: /新建任务/ }));
    const drawer = within(await screen.findByRole('dialog'));
    fireEvent.click(drawer.getByRole('button', { name: /保\s?存/ }));
    expect(await drawer.findByText('请填写任务名称')).toBeTruthy();
    fireEvent.change(drawer.getByLabelText('任务名称'), { target: { value: '本机服务' } });
    fireEvent.change(drawer.getByLabelText('监控地址'), { target: { value: 'ftp://x' } });
    fireEvent.click(drawer.getByRole('button', { name: /保\s?存/ }));
    expect(await drawer.findByText('网页类任务的地址须以 http:// 或 https:// 开头')).toBeTruthy();
    expect(seen.posts).toEqual([]);
    fireEvent.change(drawer.getByLabelText('监控地址'), { target: { value: 'http://127.0.0.1:8080/' } });
    fireEvent.click(drawer.getByRole('button', { name: /保\s?存/ }));
    expect(await drawer.findByText('不能监控内网或本机地址（127.0.0.1）')).toBeTruthy();
    expect(seen.posts[0]?.body).toMatchObject({
      name: '本机服务',
      kind: 'http',
      url: 'http://127.0.0.1:8080/',
      method: 'GET',
      intervalS: 60,
      acceptedStatus: '200-299',
      followRedirects: true,
      ignoreTls: false,
    });
    fireEvent.change(drawer.getByLabelText('监控地址'), { target: { value: 'https://www.example.com/' } });
    fireEvent.click(drawer.getByRole('button', { name: /保\s?存/ }));
    expect(await screen.findByRole('button', { name: '本机服务' })).toBeTruthy();
    expect(seen.posts).toHaveLength(2);
  });

  it('a tcp job asks tcp://host:port and sends no http fields', async () => {
    signedInAs(USER);
    const seen = api([]);
    renderApp('/job');
    await screen.findByText(/还没有监控任务/);
    fireEvent.click(screen.getByRole('button', { name: /新建任务/ }));
    const drawer = within(await screen.findByRole('dialog'));
    fireEvent.change(drawer.getByLabelText('任务名称'), { target: { value: '数据库' } });
    fireEvent.mouseDown(drawer.getByLabelText('类型'));
    fireEvent.click(await screen.findByTitle('TCP 端口'));
    await waitFor(() => expect(drawer.queryByLabelText('请求方法')).toBeNull());
    fireEvent.change(drawer.getByLabelText('监控地址'), { target: { value: 'https://db.example.com' } });
    fireEvent.click(drawer.getByRole('button', { name: /保\s?存/ }));
    expect(await drawer.findByText(/须为 tcp:\/\/主机:端口/)).toBeTruthy();
    fireEvent.change(drawer.getByLabelText('监控地址'), { target: { value: 'tcp://db.example.com:5432' } });
    fireEvent.click(drawer.getByRole('button', { name: /保\s?存/ }));
    await waitFor(() => expect(seen.posts).toHaveLength(1));
    const body = seen.posts[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ kind: 'tcp', url: 'tcp://db.example.com:5432' });
    expect(body).not.toHaveProperty('method');
    expect(body).not.toHaveProperty('acceptedStatus');
  });

  it('a job’s detail shows uptime over 24 h / 7 d / 30 d and pages its history back with `before`', async () => {
    signedInAs(USER);
    const seen = api([job(1)]);
    renderApp('/job');
    fireEvent.click(await screen.findByRole('button', { name: '任务1' }));
    const detail = within(await screen.findByTestId('job-detail'));
    expect(await detail.findByText('98.25%')).toBeTruthy();
    expect(detail.getAllByText('97.25%').length).toBeGreaterThan(0);
    expect(detail.getByText('30 天可用率')).toBeTruthy();
    expect(await detail.findByText('250 ms')).toBeTruthy();
    await waitFor(() => expect(detail.getAllByText(/HTTP 500/).length).toBeGreaterThan(0));
    fireEvent.click(detail.getByRole('button', { name: '更早的记录' }));
    await waitFor(() => expect(seen.runsQueries.some((q) => q.get('before') === at(-49))).toBe(true));
    await waitFor(() => expect(detail.getAllByText(/HTTP 500/)).toHaveLength(2));
    expect(detail.queryByRole('button', { name: '更早的记录' })).toBeNull();
  });

  it('删除 asks first, then deletes', async () => {
    signedInAs(USER);
    const seen = api([job(1)]);
    renderApp('/job');
    const row = within(await rowOf('任务1'));
    fireEvent.click(row.getByRole('button', { name: /删\s?除/ }));
    expect(seen.deletes).toEqual([]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('删除任务“任务1”？').length).toBeGreaterThan(0);
    fireEvent.click(within(dialog).getByRole('button', { name: /删\s?除/ }));
    await waitFor(() => expect(seen.deletes).toEqual(['1']));
    await waitFor(() => expect(screen.queryByRole('button', { name: '任务1' })).toBeNull());
  });
});
