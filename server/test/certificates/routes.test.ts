/**
 * The certificate routes as a user and an admin see them, on each database: a check now, the
 * refusal of loopback for a user without monitor:write (nothing connects), watches of one's own
 * only, a never-checked job without figures, the admin checkNow action writing the row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, adminApi, apiAs, userId } from '../resources/helpers.js';
import { type Issued, makeCa, makeLeaf, type TestServer, tlsServer } from './pki.js';

describe.each(DB_KINDS)('certificate routes on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let guest: Api;
  let root: Issued;
  let server: TestServer;
  let leaf: Issued;

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { sslCheckTimeoutMs: 2000 } });
    // Real time: OpenSSL judges the certificates' validity by it.
    t.clock.current = Date.now();
    admin = await adminApi(t);
    guest = apiAs(t.app, await tokenOf(t.app, 'guest', DEMO_PASSWORD));
    root = await makeCa('路由测试根 CA');
    // Sixty and a half days: 60 whole days left whenever the test runs within twelve hours.
    leaf = await makeLeaf({ issuer: root, toDays: 60.5 });
    server = await tlsServer(leaf);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('POST /api/me/ssl/check: the verdict and the chain', async () => {
    const res = await admin.post('/api/me/ssl/check', {
      host: '127.0.0.1',
      port: server.port,
      servername: 'localhost',
      ca: root.pem,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      verdict: 'ok',
      reason: '证书有效，剩余 60 天',
      daysLeft: 60,
      host: '127.0.0.1',
      port: server.port,
    });
    expect(res.body.data.chain[0]).toMatchObject({
      subject: 'CN=localhost',
      issuer: 'CN=路由测试根 CA',
      sans: ['localhost', '127.0.0.1'],
      keyType: 'EC',
      keySize: 256,
    });
    // Without the CA: untrusted, with the reason.
    const bare = await admin.post('/api/me/ssl/check', {
      host: '127.0.0.1',
      port: server.port,
      servername: 'localhost',
    });
    expect(bare.body.data.verdict).toBe('untrusted');
  });

  it('a user without monitor:write cannot check loopback: 422 and nothing connects', async () => {
    const before = server.connections;
    const res = await guest.post('/api/me/ssl/check', { host: '127.0.0.1', port: server.port });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('没有监控权限，不能连接本机地址（127.0.0.1）');
    expect(res.body.data.fields.host).toBe('没有监控权限，不能连接本机地址（127.0.0.1）');
    const watch = await guest.post('/api/me/ssl', { host: '127.0.0.1', port: server.port });
    expect(watch.status).toBe(422);
    expect((await guest.get('/api/me/ssl')).body.data).toEqual([]);
    expect(server.connections).toBe(before);
  });

  it('bad input: Chinese messages per field, never a 500', async () => {
    const res = await admin.post('/api/me/ssl/check', { host: 'not a host!', port: 70_000, starttls: 'ftp' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.data.fields).sort()).toEqual(['host', 'port', 'starttls']);
    expect(res.body.data.fields.host).toBe('域名：请输入主机名或 IPv4 地址');
    const ca = await admin.post('/api/me/ssl/check', { host: 'localhost', ca: 'not a pem' });
    expect(ca.status).toBe(422);
    expect(ca.body.data.fields.ca).toBe('须为 PEM 格式的证书（-----BEGIN CERTIFICATE----- 开头）');
    const none = await admin.post('/api/me/ssl/check', {});
    expect(none.status).toBe(422);
    expect(none.body.data.fields.host).toBeTruthy();
  });

  it('a job never checked shows no figures; checkNow writes the certificate on the row', async () => {
    const created = await admin.post('/api/admin/sslJobs', {
      host: '127.0.0.1',
      port: server.port,
      servername: 'localhost',
      caBundle: root.pem,
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      status: 'pending',
      daysLeft: null,
      notAfter: null,
      verdict: null,
    });
    const list = await admin.get(`/api/admin/sslJobs?limit=100`);
    expect(list.body.data.results.find((r: { id: number }) => r.id === id)).toMatchObject({ daysLeft: null });

    const checked = await admin.post(`/api/admin/sslJobs/${id}/checkNow`);
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.message).toBe('检测完成：正常');
    expect(checked.body.data).toMatchObject({
      status: 'ok',
      verdict: 'ok',
      daysLeft: 60,
      issuer: 'CN=路由测试根 CA',
      subject: 'CN=localhost',
      sans: ['localhost', '127.0.0.1'],
      fingerprint256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      notAfter: leaf.cert.notAfter.toISOString(),
      keyType: 'EC 256',
      lastError: null,
      lastCheckAt: new Date(t.clock.now()).toISOString(),
    });
    expect(checked.body.data.chain[0].subject).toBe('CN=localhost');
    // The invalid CA bundle is refused on the admin form as well.
    const bad = await admin.patch(`/api/admin/sslJobs/${id}`, {
      caBundle: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      updatedAt: checked.body.data.updatedAt,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.data.fields.caBundle).toBe('证书内容无法解析，请粘贴完整的 PEM 证书');
    // Deleting a checked job works (its notices and alerts do not hold it).
    expect((await admin.del(`/api/admin/sslJobs/${id}`)).status).toBe(200);
  });

  it('watches: created and checked at once, one’s own only', async () => {
    const res = await admin.post('/api/me/ssl', {
      host: '127.0.0.1',
      port: server.port,
      servername: 'localhost',
      ca: root.pem,
      notifyDays: [30, 90],
    });
    expect(res.status, res.text).toBe(200);
    const watch = res.body.data;
    expect(watch).toMatchObject({
      status: 'expiring',
      verdict: 'expiring',
      daysLeft: 60,
      notifyDays: [30, 90],
    });
    const again = await admin.post('/api/me/ssl', { host: '127.0.0.1', port: server.port });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`已在监控 127.0.0.1:${server.port}`);

    const mine = await admin.get('/api/me/ssl');
    expect(mine.body.data.map((r: { id: number }) => r.id)).toContain(watch.id);
    expect((await admin.get('/api/me/ssl?status=ok')).body.data).toEqual([]);
    expect((await guest.get('/api/me/ssl')).body.data).toEqual([]);
    expect((await guest.post(`/api/me/ssl/${watch.id}/check`)).status).toBe(404);
    expect((await guest.del(`/api/me/ssl/${watch.id}`)).status).toBe(404);

    const now = await admin.post(`/api/me/ssl/${watch.id}/check`);
    expect(now.status, now.text).toBe(200);
    expect(now.body.data.sslJob).toMatchObject({ id: watch.id, verdict: 'expiring' });
    expect(now.body.data.check).toMatchObject({ verdict: 'expiring', daysLeft: 60 });
    // The leaf, then the root it verified against (the job's CA bundle).
    expect(now.body.data.check.chain.map((c: { subject: string }) => c.subject)).toEqual([
      'CN=localhost',
      'CN=路由测试根 CA',
    ]);

    // The expiring alert was raised once (the 90-day threshold), at creation, not again.
    const alerts = await admin.get(`/api/admin/monitorAlerts?limit=100&sslJobId=${watch.id}`);
    expect(alerts.status, alerts.text).toBe(200);
    expect(
      alerts.body.data.results.map((a: { level: string; message: string }) => [a.level, a.message]),
    ).toEqual([['expiring', `证书将在 60 天后到期（127.0.0.1:${server.port}，提前 90 天提醒）`]]);

    expect((await admin.del(`/api/me/ssl/${watch.id}`)).status).toBe(200);
    expect((await admin.get('/api/me/ssl')).body.data).toEqual([]);
  });

  it('a job is checked under its owner’s policy: an owner without monitor:write reaches no loopback', async () => {
    const before = server.connections;
    const created = await admin.post('/api/admin/sslJobs', {
      host: '127.0.0.1',
      port: server.port,
      ownerId: await userId(t, 'guest'),
    });
    expect(created.status, created.text).toBe(200);
    const checked = await admin.post(`/api/admin/sslJobs/${created.body.data.id}/checkNow`);
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.data).toMatchObject({
      status: 'error',
      verdict: 'unreachable',
      daysLeft: null,
      lastError: '没有监控权限，不能连接本机地址（127.0.0.1）',
    });
    expect(server.connections).toBe(before);
    await admin.del(`/api/admin/sslJobs/${created.body.data.id}`);
  });

  it('unreachable: recorded with why, no figures', async () => {
    const res = await admin.post('/api/me/ssl', { host: '127.0.0.1', port: 1, notifyDays: [7] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'error',
      verdict: 'unreachable',
      daysLeft: null,
      notAfter: null,
    });
    expect(res.body.data.lastError).toBe('无法取得证书：连接被拒绝（127.0.0.1:1），端口未开放');
    await admin.del(`/api/me/ssl/${res.body.data.id}`);
  });
});
