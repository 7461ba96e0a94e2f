/**
 * Monitor jobs end to end through /api/me/jobs and the admin routes, on each database: own jobs
 * only, the per-user cap, the outbound check on save, a check recorded (heartbeat, status,
 * roll-ups, alert, /ws push), and the runner's scheduler at the test clock's time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResource, rollupOf } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillRollups, periodStart, putRollup } from '../../src/domain/monitor-jobs/rollups.js';
import { readLease } from '../../src/scheduler/index.js';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs, userId } from '../resources/helpers.js';

const MINUTE = 60_000;

let server: http.Server;
let base: string;
/** What the watched server answers; tests flip it. */
let answer = 200;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.statusCode = answer;
    res.end(answer === 200 ? 'all good' : 'broken');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe.each(DB_KINDS)('monitor jobs on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let guest: Api;
  let adminId: number;
  const pushes: unknown[] = [];

  beforeAll(async () => {
    answer = 200;
    t = await startTestApp(kind, { config: { monitoring: { maxJobsPerUser: 3 } } });
    admin = await adminApi(t);
    guest = apiAs(t.app, await tokenOf(t.app, 'guest', DEMO_PASSWORD));
    adminId = await userId(t, 'admin');
    t.app.hub.subscribe(`monitor:user:${adminId}`, (data) => pushes.push(data));
  });
  afterAll(async () => t?.close());

  const create = async (api: Api, body: Record<string, unknown>) =>
    api.post('/api/me/jobs', { name: '官网', kind: 'http', url: `${base}/`, intervalS: 60, ...body });

  it('refuses loopback targets to a user without the monitoring permission, at save', async () => {
    const res = await create(guest, {});
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toBe('没有监控权限，不能连接本机地址（127.0.0.1）');
    const named = await create(guest, { url: 'http://localhost:8080/' });
    expect(named.status).toBe(422);
    expect(named.body.message).toMatch(/^没有监控权限，不能连接本机地址（localhost → /);
    const tcp = await create(guest, { kind: 'tcp', url: 'tcp://10.0.0.8:22' });
    expect(tcp.body.message).toBe('没有监控权限，不能连接内网地址（10.0.0.8）');
    expect((await guest.get('/api/me/jobs')).body.data).toEqual([]);
  });

  it('refuses bad fields in Chinese and changes nothing', async () => {
    const res = await create(admin, { kind: 'tcp', url: 'http://example.com/' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('TCP 端口任务的地址须为 tcp://主机:端口');
  });

  let jobId: number;

  it('records a check: heartbeat, status, roll-ups, alert on flips, /ws push', async () => {
    const created = await create(admin, { maxRetries: 1 });
    expect(created.status, created.text).toBe(200);
    jobId = created.body.data.id;
    expect(created.body.data).toMatchObject({ status: 'pending', ownerId: adminId, lastCheckAt: null });

    const runsTotal = async () => (await admin.get('/api/admin/monitorRuns?limit=1')).body.data.page.total;
    expect(await runsTotal()).toBe(0); // counted, and cached
    const first = await admin.post(`/api/me/jobs/${jobId}/run`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.job).toMatchObject({ status: 'up', lastLatencyMs: expect.any(Number) });
    expect(first.body.data.run).toMatchObject({
      status: 'up',
      httpStatus: 200,
      important: true,
      message: '状态码 200',
    });

    answer = 503;
    t.clock.advance(MINUTE);
    const retry = await admin.post(`/api/me/jobs/${jobId}/run`);
    expect(retry.body.data.job.status).toBe('pending');
    t.clock.advance(MINUTE);
    const down = await admin.post(`/api/me/jobs/${jobId}/run`);
    expect(down.body.data.job.status).toBe('down');
    expect(down.body.data.run).toMatchObject({
      status: 'down',
      important: true,
      message: '状态码 503 不在 200-299 内',
    });
    t.clock.advance(MINUTE);
    await admin.post(`/api/me/jobs/${jobId}/run`); // still down: no second alert

    answer = 200;
    t.clock.advance(MINUTE);
    const back = await admin.post(`/api/me/jobs/${jobId}/run`);
    expect(back.body.data.job.status).toBe('up');

    const alerts = await admin.get('/api/me/alerts');
    expect(alerts.body.data.map((a: { level: string }) => a.level)).toEqual(['up', 'down']);
    expect(alerts.body.data[1]).toMatchObject({
      jobId,
      ownerId: adminId,
      message: '「官网」故障：状态码 503 不在 200-299 内',
    });
    expect(pushes).toHaveLength(5);
    expect(pushes.filter((p) => (p as { alert?: unknown }).alert)).toHaveLength(2);
    expect(pushes[0]).toMatchObject({ type: 'job', job: { id: jobId, status: 'up' }, run: { status: 'up' } });

    expect(await runsTotal()).toBe(5); // the admin list's total follows at once
    const runs = await admin.get(`/api/me/jobs/${jobId}/runs?limit=3`);
    expect(runs.body.data.map((r: { status: string }) => r.status)).toEqual(['up', 'down', 'down']);
    const older = await admin.get(
      `/api/me/jobs/${jobId}/runs?before=${encodeURIComponent(runs.body.data[2].at)}`,
    );
    expect(older.body.data.map((r: { status: string }) => r.status)).toEqual(['pending', 'up']);

    // 5 checks: up, pending (counts as up), down, down, up.
    const uptime = await admin.get(`/api/me/jobs/${jobId}/uptime`);
    expect(uptime.body.data).toEqual({ h24: 60, d7: 60, d30: 60 });
    const stats = await admin.get(`/api/me/jobs/${jobId}/stats?range=24h`);
    expect(stats.body.data).toMatchObject({ range: '24h', uptime: 60 });
    expect(
      stats.body.data.points.reduce((n: number, p: { up: number; down: number }) => n + p.up + p.down, 0),
    ).toBe(5);
    expect((await admin.get(`/api/admin/monitorJobs/${jobId}/uptime`)).body.data).toEqual(uptime.body.data);

    const list = await admin.get('/api/me/jobs');
    expect(list.body.data[0]).toMatchObject({ id: jobId, uptime24h: 60 });
    expect(list.body.data[0].recent.map((r: { status: string }) => r.status)).toEqual([
      'up',
      'pending',
      'down',
      'down',
      'up',
    ]);
  });

  it('answers 404 for another user’s job, on every route', async () => {
    for (const path of ['', '/runs', '/uptime', '/stats'])
      expect((await guest.get(`/api/me/jobs/${jobId}${path}`)).status).toBe(404);
    expect((await guest.post(`/api/me/jobs/${jobId}/run`)).status).toBe(404);
    expect((await guest.patch(`/api/me/jobs/${jobId}`, { name: 'x' })).status).toBe(404);
    expect((await guest.del(`/api/me/jobs/${jobId}`)).status).toBe(404);
    expect((await guest.get(`/api/admin/monitorJobs/${jobId}/uptime`)).status).toBe(403);
  });

  it('refuses a loopback target on edit too, and keeps the job as it was', async () => {
    const own = await guest.post('/api/me/jobs', {
      name: '公网',
      kind: 'http',
      url: 'http://93.184.215.14/',
      intervalS: 60,
    });
    expect(own.status, own.text).toBe(200);
    const res = await guest.patch(`/api/me/jobs/${own.body.data.id}`, {
      url: 'http://169.254.169.254/latest/meta-data',
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('没有监控权限，不能连接链路本地地址（169.254.169.254）');
    expect((await guest.get(`/api/me/jobs/${own.body.data.id}`)).body.data.url).toBe('http://93.184.215.14/');
    expect((await guest.del(`/api/me/jobs/${own.body.data.id}`)).status).toBe(200);
  });

  it('lets readers of monitor jobs hear every job, and a user only their own', () => {
    const hub = t.app.hub;
    const adminUser = { id: adminId, permissions: ['monitor:read', 'monitor:write'] } as never;
    const member = { id: 999, permissions: [] } as never;
    expect(hub.mayListen(adminUser, 'monitor')).toBe(true);
    expect(hub.mayListen(member, 'monitor')).toBe(false);
    expect(hub.mayListen(member, 'monitor:user:999')).toBe(true);
    expect(hub.mayListen(member, `monitor:user:${adminId}`)).toBe(false);
    expect(hub.mayListen(null, 'monitor:user:999')).toBe(false);
  });

  it('pauses and resumes; a paused job is not checked', async () => {
    const paused = await admin.post(`/api/me/jobs/${jobId}/pause`);
    expect(paused.body.data.status).toBe('paused');
    const run = await admin.post(`/api/me/jobs/${jobId}/run`);
    expect(run.status).toBe(409);
    expect(run.body.message).toBe('任务已暂停，恢复后才能检查');
    expect((await admin.post(`/api/me/jobs/${jobId}/resume`)).body.data.status).toBe('pending');
  });

  it('runNow as the admin resource action', async () => {
    const res = await admin.post(`/api/admin/monitorJobs/${jobId}/runNow`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.status).toBe('up');
    expect(res.body.message).toBe('正常：状态码 200');
  });

  it('caps the jobs a user owns', async () => {
    expect((await create(admin, { name: '二' })).status).toBe(200);
    expect((await create(admin, { name: '三' })).status).toBe(200);
    const fourth = await create(admin, { name: '四' });
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe('每位用户最多 3 个监控任务，请先删除不用的任务');
  });

  it('rebuilds roll-ups from heartbeats that have none (demo history, runs from before roll-ups)', async () => {
    const job = (await t.app.resources.insertRows(getResource('monitorJobs'), [
      {
        name: '历史',
        kind: 'http',
        url: 'https://example.com/',
        intervalS: 60,
        status: 'up',
        ownerId: adminId,
      },
    ])) as number[];
    const id = job[0] as number;
    const at = (minutesAgo: number) => t.clock.now() - minutesAgo * MINUTE;
    await t.app.resources.insertRows(getResource('monitorRuns'), [
      { jobId: id, status: 'up', latencyMs: 30, at: at(90), important: false },
      { jobId: id, status: 'down', latencyMs: null, at: at(60), important: true },
      { jobId: id, status: 'up', latencyMs: 50, at: at(30), important: true },
      { jobId: id, status: 'up', latencyMs: 40, at: at(1), important: false },
    ]);
    expect((await admin.get(`/api/me/jobs/${id}/uptime`)).body.data.h24).toBeNull();
    expect(await backfillRollups(t.app.db as never, kind)).toBe(1);
    expect(await backfillRollups(t.app.db as never, kind)).toBe(0);
    expect((await admin.get(`/api/me/jobs/${id}/uptime`)).body.data).toEqual({ h24: 75, d7: 75, d30: 75 });
    await admin.del(`/api/me/jobs/${id}`);
  });

  it('keeps raw heartbeats and hourly roll-ups for the retention days, daily roll-ups longer', async () => {
    const [id] = (await t.app.resources.insertRows(getResource('monitorJobs'), [
      {
        name: '保留',
        kind: 'http',
        url: 'https://example.com/',
        intervalS: 60,
        status: 'up',
        ownerId: adminId,
      },
    ])) as number[];
    const daysAgo = (d: number) => t.clock.now() - d * 86_400_000;
    await t.app.resources.insertRows(getResource('monitorRuns'), [
      { jobId: id, status: 'up', latencyMs: 30, at: daysAgo(31), important: false },
      { jobId: id, status: 'up', latencyMs: 30, at: daysAgo(29), important: false },
    ]);
    const db = t.app.db as never;
    const one = rollupOf({ status: 'up', latencyMs: 30 });
    for (const d of [31, 29]) {
      await putRollup(db, id as number, 'hour', periodStart('hour', daysAgo(d)), one);
      await putRollup(db, id as number, 'day', periodStart('day', daysAgo(d)), one);
    }
    await putRollup(db, id as number, 'day', periodStart('day', daysAgo(401)), one);
    await t.app.scheduler.runBody('monitor.retention');
    const runs = await admin.get(`/api/me/jobs/${id}/runs`);
    expect(runs.body.data).toHaveLength(1);
    const left = await t.app.db
      .selectFrom('monitor_rollups' as never)
      .select(['period' as never, 'start_at' as never])
      .where('job_id' as never, '=', id as never)
      .execute();
    expect(left.map((r) => (r as { period: string }).period).sort()).toEqual(['day', 'day', 'hour']);
    await admin.del(`/api/me/jobs/${id}`);
  });

  it('the runner checks each active job at its interval, retries at the retry interval, skips paused jobs', async () => {
    const runner = t.app.monitorJobs;
    // Only this test's job stays active.
    for (const job of (await admin.get('/api/me/jobs')).body.data) await admin.del(`/api/me/jobs/${job.id}`);
    const created = await create(admin, { name: '定时', intervalS: 120, retryIntervalS: 30, maxRetries: 2 });
    const id = created.body.data.id as number;
    await runner.sync();
    expect(runner.names()).toEqual([`monitor.check:${id}`]);
    const runsCount = async () =>
      (await admin.get(`/api/me/jobs/${id}/runs?limit=500`)).body.data.length as number;
    const tick = async () => {
      await runner.scheduler.tick();
      await runner.scheduler.idle();
    };
    // First attempt within the jitter of one period.
    t.clock.advance(30_000);
    await tick();
    expect(await runsCount()).toBe(1);
    // Up: nothing at the 30 s retry period until the 120 s interval has passed.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(30_000);
      await tick();
    }
    expect(await runsCount()).toBe(1);
    t.clock.advance(30_000);
    await tick();
    expect(await runsCount()).toBe(2);
    // Failing: noticed at the next interval (120 s), then pending and checked again every 30 s.
    answer = 500;
    for (let i = 0; i < 6; i++) {
      t.clock.advance(30_000);
      await tick();
    }
    const states = (await admin.get(`/api/me/jobs/${id}/runs?limit=500`)).body.data.map(
      (r: { status: string }) => r.status,
    );
    expect(states).toEqual(['down', 'pending', 'pending', 'up', 'up']);
    answer = 200;
    // Paused: unregistered at the next sync, never checked.
    await admin.post(`/api/me/jobs/${id}/pause`);
    await runner.sync();
    expect(runner.names()).toEqual([]);
    t.clock.advance(10 * MINUTE);
    await tick();
    expect(await runsCount()).toBe(5);
    // Deleted: the retention task drops its lease row.
    expect(await readLease(t.app.db, `monitor.check:${id}`)).toBeDefined();
    await admin.del(`/api/me/jobs/${id}`);
    await t.app.scheduler.runBody('monitor.retention');
    expect(await readLease(t.app.db, `monitor.check:${id}`)).toBeUndefined();
  });
});
