/**
 * Certificate jobs checked on their schedule by the server's scheduler (the `certificates.check`
 * sweep under its lease, driven by the TestClock), and each expiry threshold notified once per
 * certificate: an alert row and a `/ws` push for the smallest threshold crossed, nothing more
 * until the next; a renewed certificate (new fingerprint) starts afresh; expiry once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sslJobOf } from '../../src/domain/certificates/jobs.js';
import { checkJob } from '../../src/domain/certificates/service.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { adminApi } from '../resources/helpers.js';
import { type Issued, makeCa, makeLeaf, type TestServer, tlsServer } from './pki.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DB_KINDS)('scheduled certificate checks on %s', (kind) => {
  let t: TestApp;
  let root: Issued;
  const servers: TestServer[] = [];
  const pushed: {
    type: string;
    sslJob: { id: number; status: string };
    alert: { level: string; message: string };
  }[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    // OpenSSL judges validity by real time; the verdict and the schedule by the test's clock.
    t.clock.current = Date.now();
    root = await makeCa('计划测试根 CA');
    t.app.hub.subscribe('monitor', (data) => pushed.push(data as (typeof pushed)[number]));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await t?.close();
  });

  const serve = async (toDays: number) => {
    const server = await tlsServer(await makeLeaf({ issuer: root, toDays }));
    servers.push(server);
    return server;
  };
  /** What the scheduler does when its timer fires at the clock's time: the lease, then the run. */
  const sweep = async () => {
    await t.app.scheduler.tick();
    await t.app.scheduler.idle();
  };
  const job = async (id: number) => {
    const res = await (await adminApi(t)).get(`/api/admin/sslJobs/${id}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const alerts = async (id: number) => {
    const res = await (await adminApi(t)).get(`/api/admin/monitorAlerts?limit=100&sort=at&sslJobId=${id}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.results.map((a: { level: string; message: string }) => `${a.level} ${a.message}`);
  };

  it('checks due jobs, notifies each threshold once per fingerprint, starts afresh on renewal', async () => {
    const first = await serve(25.5);
    const created = await (await adminApi(t)).post('/api/admin/sslJobs', {
      host: '127.0.0.1',
      port: first.port,
      servername: 'localhost',
      caBundle: root.pem,
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.data.id as number;
    const where = `127.0.0.1:${first.port}`;

    await sweep();
    const checked = await job(id);
    expect(checked).toMatchObject({ status: 'ok', verdict: 'ok', daysLeft: 25 });
    expect(await alerts(id)).toEqual([]);

    // Not due again before its interval (6 hours): the next minute's sweep leaves it.
    t.clock.advance(60_000);
    await sweep();
    expect((await job(id)).lastCheckAt).toBe(checked.lastCheckAt);

    // 20 days left: the 21-day threshold, once.
    t.clock.advance(5 * DAY);
    await sweep();
    expect(await job(id)).toMatchObject({ status: 'expiring', daysLeft: 20 });
    expect(await alerts(id)).toEqual([`expiring 证书将在 20 天后到期（${where}，提前 21 天提醒）`]);
    t.clock.advance(7 * HOUR);
    await sweep();
    expect((await job(id)).lastCheckAt).toBe(new Date(t.clock.now()).toISOString());
    expect(await alerts(id)).toHaveLength(1);

    // 6 days left: 14 and 7 both crossed since the last notice — one alert, for 7.
    t.clock.advance(14 * DAY);
    await sweep();
    expect(await alerts(id)).toEqual([
      `expiring 证书将在 20 天后到期（${where}，提前 21 天提醒）`,
      `expiring 证书将在 6 天后到期（${where}，提前 7 天提醒）`,
    ]);
    t.clock.advance(7 * HOUR);
    await sweep();
    expect(await alerts(id)).toHaveLength(2);

    // Renewed: a new certificate (new fingerprint) with 13 days left at the clock's time (19 days
    // and 14 hours after the start) —
    // its 14- and 21-day thresholds are new to it: one alert, for 14.
    const renewed = await serve(33);
    const before = await job(id);
    const moved = await (await adminApi(t)).patch(`/api/admin/sslJobs/${id}`, {
      port: renewed.port,
      updatedAt: before.updatedAt,
    });
    expect(moved.status, moved.text).toBe(200);
    // Another target: the old certificate's figures are gone until the next sweep checks it.
    expect(moved.body.data).toMatchObject({
      status: 'pending',
      daysLeft: null,
      fingerprint256: null,
      lastCheckAt: null,
    });
    t.clock.advance(60_000);
    await sweep();
    const after = await job(id);
    expect(after.fingerprint256).not.toBe(before.fingerprint256);
    expect(after).toMatchObject({ status: 'expiring', daysLeft: 13 });
    const renewedWhere = `127.0.0.1:${renewed.port}`;
    expect((await alerts(id)).slice(2)).toEqual([
      `expiring 证书将在 13 天后到期（${renewedWhere}，提前 14 天提醒）`,
    ]);

    // Past its notAfter by the clock: expired, alerted once.
    t.clock.advance(14 * DAY);
    await sweep();
    expect(await job(id)).toMatchObject({ status: 'expired', verdict: 'expired' });
    t.clock.advance(7 * HOUR);
    await sweep();
    const all = await alerts(id);
    expect(all).toHaveLength(4);
    expect(all[3]).toMatch(new RegExp(`^expired 证书已过期（${renewedWhere}）：证书已于 .+ 过期$`));

    // Every alert was pushed on /ws, after its commit, with the job as it was written.
    const mine = pushed.filter((p) => p.sslJob.id === id);
    expect(mine.map((p) => [p.type, p.alert.level, p.sslJob.status])).toEqual([
      ['certificate', 'expiring', 'expiring'],
      ['certificate', 'expiring', 'expiring'],
      ['certificate', 'expiring', 'expiring'],
      ['certificate', 'expired', 'expired'],
    ]);
  });

  it('two checks of one job at once (two processes) notify a threshold once', async () => {
    const soon = await serve(10.5);
    const created = await (await adminApi(t)).post('/api/admin/sslJobs', {
      host: '127.0.0.1',
      port: soon.port,
      servername: 'localhost',
      caBundle: root.pem,
    });
    const id = created.body.data.id as number;
    const db = t.app.db as unknown as AnyDb;
    const job = await sslJobOf(db, id);
    if (!job) throw new Error('job not stored');
    const env = { db, now: t.clock.now, timeoutMs: 3000 };
    const both = await Promise.all([checkJob(env, job), checkJob(env, job)]);
    expect(both.filter((c) => c.alert !== null)).toHaveLength(1);
    expect(await alerts(id)).toHaveLength(1);
  });

  it('a failure alerts when it begins, not on every check', async () => {
    const created = await (await adminApi(t)).post('/api/admin/sslJobs', { host: '127.0.0.1', port: 1 });
    const id = created.body.data.id as number;
    t.clock.advance(7 * HOUR);
    await sweep();
    t.clock.advance(7 * HOUR);
    await sweep();
    expect(await job(id)).toMatchObject({ status: 'error', verdict: 'unreachable', daysLeft: null });
    expect(await alerts(id)).toEqual([
      'error 证书检测失败（127.0.0.1:1）：无法取得证书：连接被拒绝（127.0.0.1:1），端口未开放',
    ]);
  });
});
