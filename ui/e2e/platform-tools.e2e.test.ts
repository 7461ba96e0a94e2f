/**
 * Platform tools in a real browser: sys-config/old shows a saved configuration version as a
 * field-by-field comparison with the current configuration (labels, changed/added/removed
 * marked), and 恢复此版本 brings it back as a new version.
 */
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
  });
  afterAll(async () => {
    await session?.stop();
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
