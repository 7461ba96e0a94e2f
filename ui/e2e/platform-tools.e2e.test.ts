/**
 * Platform tools in a real browser: sys-config/old shows a saved configuration version as a
 * field-by-field comparison with the current configuration (labels, changed/added/removed
 * marked), and 恢复此版本 brings it back as a new version; a poster's generated image in its list
 * and 生成; a third-party service's 测试 against a local HTTP server, reported in Chinese.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  startSession,
  TEST_ADMIN_PASSWORD,
  useToken,
} from './harness';

describe.runIf(browserAvailable())('platform tools (e2e)', () => {
  let session: Session;
  let token: string;
  // The third-party service's endpoint: a local HTTP server (the admin may reach loopback).
  const provider = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${session.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as { success: boolean; data: Record<string, unknown> };
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const saveConfig = async (values: Record<string, unknown>) => {
    const current = await api('GET', '/api/admin/platformConfig/1');
    await api('PATCH', '/api/admin/platformConfig/1', values, { 'if-match': String(current.updatedAt) });
  };

  beforeAll(async () => {
    session = await startSession();
    token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => provider.close(resolve));
    await session?.stop();
  });

  it('poster: the saved poster shows its generated image; 生成 renders again', async () => {
    const background = await sharp({
      create: { width: 540, height: 960, channels: 3, background: '#457b9d' },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(background)], { type: 'image/jpeg' }), 'bg.jpg');
    const upload = await fetch(`${session.server.url}/api/admin/uploads?resource=posters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const { url } = ((await upload.json()) as { data: { url: string } }).data;
    const poster = await api('POST', '/api/admin/posters', {
      title: '扫码领券',
      background: url,
      targetUrl: 'https://wanxiang.example.com/coupon?from=poster',
    });
    expect(String(poster.image)).toMatch(/^\/api\/files\/[0-9a-f]{32}\.png$/);

    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/admin/poster');
    const row = page.locator('.wx-resource-table tbody tr.ant-table-row').filter({ hasText: '扫码领券' });
    await row.waitFor();
    const shown = row.locator(`img[src="${String(poster.image)}"]`);
    await shown.waitFor();
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await row.getByRole('button', { name: /^生\s?成$/ }).click();
    await page
      .locator('.ant-notification-notice, .ant-message-notice')
      .getByText('生成成功')
      .first()
      .waitFor();
    await screenshot(page, 'posters');
    expect(errors).toEqual([]);
    await close();
  });

  it('law/third_service: 测试 reaches a local endpoint and says so in Chinese', async () => {
    await api('POST', '/api/admin/thirdServices', {
      name: '本地短信网关',
      kind: 'sms',
      endpoint: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/health`,
      appId: 'app-1',
      secret: 'sk-e2e-secret-value',
    });
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/admin/law/third_service');
    const row = page.locator('.wx-resource-table tbody tr.ant-table-row').filter({ hasText: '本地短信网关' });
    await row.waitFor();
    expect(await row.textContent()).not.toContain('sk-e2e-secret-value');
    await row.getByRole('button', { name: /^测\s?试$/ }).click();
    await page
      .locator('.ant-notification-notice, .ant-message-notice')
      .getByText(/^连接成功：HTTP 200，耗时 \d+ 毫秒$/)
      .first()
      .waitFor();
    await screenshot(page, 'third-service-test');
    expect(errors).toEqual([]);
    await close();
  });

  it('sys-config/old: a version against the current configuration, field by field; restore', async () => {
    await saveConfig({ productName: '星河外卖', copyright: '© 2023 星河', allowRegistration: false });
    await saveConfig({
      productName: '星河外卖平台',
      copyright: '',
      allowRegistration: true,
      contact: '400-800-8000',
    });

    const { page, errors, close } = await openPage(session, { height: 900 });
    await useToken(page, token);
    await page.goto('/admin/sys-config/old');
    const rows = page.locator('.wx-cv-board tbody tr.ant-table-row');
    await rows.first().waitFor();
    // The newest version equals the current configuration and opens by itself.
    await page.getByTestId('config-diff').getByText('与当前配置完全相同').waitFor();
    const older = rows.filter({ hasText: /^v1/ });
    await older.getByText('4 项不同').waitFor();
    await older.getByRole('button', { name: '查看差异' }).click();
    const diff = page.getByTestId('config-diff').filter({ hasText: '与当前配置有 4 项不同' });
    await diff.waitFor();
    const line = (label: string) =>
      diff.locator('tbody tr').filter({ has: page.locator('th', { hasText: label }) });
    expect(await line('产品名称').getAttribute('data-kind')).toBe('changed');
    expect(await line('产品名称').locator('td').allTextContents()).toEqual([
      '星河外卖',
      '星河外卖平台',
      '已修改',
    ]);
    expect(await line('开放注册').locator('td').allTextContents()).toEqual(['否', '是', '已修改']);
    expect(await line('版权信息').locator('td').allTextContents()).toEqual(['© 2023 星河', '-', '已删除']);
    expect(await line('联系方式').locator('td').allTextContents()).toEqual(['-', '400-800-8000', '新增']);
    // 只看不同 off: the unchanged fields too.
    expect(await diff.locator('tbody tr').count()).toBe(4);
    await diff.getByRole('checkbox', { name: '只看不同' }).uncheck();
    expect(await diff.locator('tbody tr').count()).toBeGreaterThan(4);
    await screenshot(page, 'config-versions-diff', { fullPage: true });

    await older.getByRole('button', { name: '恢复此版本' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '恢复此版本' }).click();
    await rows.filter({ hasText: /^v3/ }).waitFor();
    expect(await api('GET', '/api/admin/platformConfig/1')).toMatchObject({
      productName: '星河外卖',
      allowRegistration: false,
    });
    expect(errors).toEqual([]);
    await close();
  });
});
