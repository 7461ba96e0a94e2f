/**
 * Monitoring and certificates in Chromium over the built product (issue 16, "Done when"): on /job
 * the admin (who may watch internal services) creates an http job against a local HTTP server,
 * 立即检查 → 正常; the server stops, 立即检查 → 故障 and an alert shows; it comes back, 立即检查 →
 * 正常. A plain user is refused loopback in Chinese (the outbound boundary), by the API and on the
 * form. On /ssl a local TLS server with a self-signed certificate made here reads 不受信任, its PEM
 * decodes in the page, and a CSR is made in the page without any request carrying the private key.
 * Screenshots of /job, a job's detail, the /ssl tabs, admin monitor/job and monitor/ssl.
 */

import { webcrypto } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import tls from 'node:tls';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cryptoProvider,
  PemConverter,
  SubjectAlternativeNameExtension,
  X509CertificateGenerator,
} from '../src/public/monitor/x509-lib';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  type TestPage,
  useToken,
} from './harness';

type Json = Record<string, unknown>;

const PLAIN = { username: 'watcher_e2e', password: 'Watcher#2026' };

/** A self-signed certificate for localhost / 127.0.0.1, made here (no file, no openssl). */
async function selfSigned(): Promise<{ certPem: string; keyPem: string }> {
  cryptoProvider.set(webcrypto as Crypto);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '01e2e0',
    name: 'CN=localhost, O=万象 e2e',
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 90 * 86_400_000),
    keys,
    signingAlgorithm: alg,
    extensions: [
      new SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
      ]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem'), keyPem: PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** A local HTTP service that can be stopped and started again on the same port. */
function localService() {
  let server: http.Server | null = null;
  let port = 0;
  return {
    get url() {
      return `http://127.0.0.1:${port}/health`;
    },
    async start() {
      server = http.createServer((_, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as net.AddressInfo).port;
    },
    async stop() {
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      server = null;
    },
  };
}

/** The /job row of a job. */
const jobRow = (page: Page, name: string) =>
  page.locator('.wx-job-screen tr').filter({ has: page.getByRole('button', { name, exact: true }) });

async function runNowAndExpect(page: Page, name: string, status: '正常' | '故障') {
  const row = jobRow(page, name);
  await row.getByRole('button', { name: '立即检查' }).click();
  await expect.poll(() => row.locator('.ant-tag').first().textContent(), { timeout: 20_000 }).toBe(status);
}

describe.runIf(browserAvailable())('monitoring and certificates (e2e)', () => {
  let session: Session;
  let adminToken: string;
  let userToken: string;
  let view: TestPage;
  let tlsServer: tls.Server;
  let tlsPort: number;
  let certPem: string;
  const service = localService();

  const call = async <T = Json>(token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${session.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { success: boolean; data: T; message?: string },
    };
  };

  beforeAll(async () => {
    session = await startSession();
    adminToken = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    const created = await call(adminToken, 'POST', '/api/admin/users', { ...PLAIN, roles: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    userToken = await apiSignIn(session.server.url, PLAIN.username, PLAIN.password);
    await service.start();
    const made = await selfSigned();
    certPem = made.certPem;
    tlsServer = tls.createServer({ key: made.keyPem, cert: made.certPem }, (socket) => socket.end());
    tlsServer.listen(0, '127.0.0.1');
    await once(tlsServer, 'listening');
    tlsPort = (tlsServer.address() as net.AddressInfo).port;
    view = await openPage(session);
  });

  afterAll(async () => {
    await view?.close();
    await service.stop();
    tlsServer?.close();
    await session?.stop();
  });

  it('a plain user may not target loopback: the API and the form say so in Chinese', async () => {
    const refused = await call(userToken, 'POST', '/api/me/jobs', {
      name: '本机',
      kind: 'http',
      url: service.url,
      intervalS: 60,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/[\u4e00-\u9fa5]/);

    const { page } = view;
    await useToken(page, userToken);
    await page.goto('/job');
    await page.getByText(/还没有监控任务/).waitFor();
    await page.getByRole('button', { name: /新建任务/ }).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: '新建监控任务' });
    await drawer.getByLabel('任务名称').fill('本机服务');
    await drawer.getByLabel('监控地址').fill(service.url);
    await drawer.getByRole('button', { name: /保\s?存/ }).click();
    await expect
      .poll(() => page.locator('.ant-form-item-explain-error, .ant-message-notice').allTextContents())
      .toContainEqual(expect.stringMatching(/[\u4e00-\u9fa5]/));
    // Chromium logs the refused request (422) as a console error: that one is expected here.
    expect(view.errors.every((e) => e.includes('422'))).toBe(true);
    view.errors.length = 0;
    const mine = await call<unknown>(userToken, 'GET', '/api/me/jobs');
    const rows = Array.isArray(mine.body.data)
      ? mine.body.data
      : (mine.body.data as { results: unknown[] }).results;
    expect(rows).toEqual([]);
  });

  it('/job: up, down with an alert, up again — as the local server comes and goes', async () => {
    const { page } = view;
    await page.evaluate(() => window.localStorage.clear());
    await useToken(page, adminToken);
    await page.goto('/job');
    await page.getByRole('button', { name: /新建任务/ }).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: '新建监控任务' });
    await drawer.getByLabel('任务名称').fill('本机服务');
    await drawer.getByLabel('监控地址').fill(service.url);
    await drawer.getByRole('button', { name: /保\s?存/ }).click();
    await jobRow(page, '本机服务').waitFor();

    await runNowAndExpect(page, '本机服务', '正常');
    await service.stop();
    await runNowAndExpect(page, '本机服务', '故障');
    // The alert: a notification when pushed over /ws, and in the list of 最近告警 either way.
    const alerts = page.getByRole('region', { name: '最近告警' });
    await expect
      .poll(() => alerts.locator('.ant-tag').allTextContents(), { timeout: 20_000 })
      .toContain('故障');
    await service.start();
    await runNowAndExpect(page, '本机服务', '正常');
    await expect
      .poll(() => alerts.locator('.ant-tag').allTextContents(), { timeout: 20_000 })
      .toContain('恢复');
    // Up, down, up again: the scheduler may check too while the service is away (a slow machine
    // spends seconds waiting for the alert), so one or more downs in the middle.
    await expect
      .poll(() => jobRow(page, '本机服务').locator('.wx-uptime-bar').getAttribute('data-beats'))
      .toMatch(/ud+u$/);
    // The row's 24 h uptime follows the checks: below 100 % with one of them down (the scheduler may
    // have added checks of its own, so not an exact figure).
    await expect
      .poll(() => jobRow(page, '本机服务').locator('.wx-uptime-figure-poor').textContent())
      .toMatch(/^\d+(\.\d+)?%$/);
    await screenshot(page, 'monitor-job', { fullPage: true });

    await page.getByRole('button', { name: '本机服务', exact: true }).click();
    const detail = page.getByTestId('job-detail');
    await detail.getByText('24 小时可用率').waitFor();
    await detail.locator('canvas').first().waitFor();
    await expect.poll(() => detail.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'monitor-job-detail');
    await page.keyboard.press('Escape');
    expect(view.errors).toEqual([]);
  });

  it('/ssl: a self-signed local TLS server reads 不受信任; a PEM decodes; a CSR is made and never sent', async () => {
    const { page } = view;
    const sent: string[] = [];
    page.on('request', (request) => sent.push(`${request.url()} ${request.postData() ?? ''}`));
    await page.goto('/ssl');
    await page.getByLabel('主机').fill('127.0.0.1');
    await page.getByLabel('端口').fill(String(tlsPort));
    await page.getByRole('button', { name: /检\s?测/ }).click();
    const verdict = page.locator('[data-verdict]');
    await verdict.waitFor({ timeout: 20_000 });
    expect(await verdict.getAttribute('data-verdict')).toBe('untrusted');
    expect(await verdict.textContent()).toContain('不受信任');
    await page.getByTestId('chain').getByText('CN=localhost, O=万象 e2e').first().waitFor();
    await screenshot(page, 'monitor-ssl-check', { fullPage: true });

    await page.getByRole('tab', { name: '解析证书' }).click();
    await page.getByLabel('PEM 证书').fill('不是证书');
    await page.getByRole('button', { name: /解\s?析/ }).click();
    await page.getByText(/未找到证书/).waitFor();
    await page.getByLabel('PEM 证书').fill(certPem);
    await page.getByRole('button', { name: /解\s?析/ }).click();
    await page.getByText('DNS:localhost，IP:127.0.0.1').waitFor();
    await screenshot(page, 'monitor-ssl-decode', { fullPage: true });

    await page.getByRole('tab', { name: '生成 CSR' }).click();
    await page.getByLabel('通用名称（CN）').fill('shop.example.com');
    await page.getByRole('button', { name: '生成密钥和 CSR' }).click();
    const key = await page.getByLabel('私钥（PEM）').inputValue({ timeout: 20_000 });
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await page.getByLabel('CSR（PEM）').inputValue()).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    const keyLine = key.split('\n')[1] as string;
    expect(sent.some((s) => s.includes(keyLine))).toBe(false);
    await screenshot(page, 'monitor-ssl-csr', { fullPage: true });

    await page.getByRole('tab', { name: '证书监控' }).click();
    await page.getByLabel('域名').fill('127.0.0.1');
    await page.locator('#ssl-watch_port').fill(String(tlsPort));
    await page.getByRole('button', { name: /添加监控/ }).click();
    await page
      .locator('.ant-table-row')
      .filter({ hasText: `127.0.0.1:${tlsPort}` })
      .first()
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'monitor-ssl-watch', { fullPage: true });
    expect(view.errors).toEqual([]);
  });

  it('admin monitor/job and monitor/ssl show everyone’s, with the same bars', async () => {
    const { page } = view;
    await page.goto('/admin/monitor/job');
    const row = page.locator('.wx-monitor-board tr').filter({ hasText: '本机服务' });
    await expect.poll(() => row.locator('.wx-uptime-bar').getAttribute('data-beats')).toMatch(/ud+u$/);
    await screenshot(page, 'monitor-admin-job', { fullPage: true });
    await page.goto('/admin/monitor/ssl');
    await page.locator('.wx-monitor-board').getByText(`127.0.0.1:${tlsPort}`).waitFor();
    await screenshot(page, 'monitor-admin-ssl', { fullPage: true });
    expect(view.errors).toEqual([]);
  });
});
