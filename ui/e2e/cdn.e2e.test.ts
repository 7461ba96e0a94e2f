/**
 * cloud/cdn/usage in Chromium against the built server: an access log uploaded with 导入日志
 * shows its outcome (lines, the malformed line with its number), then the cards, the three
 * charts and the hourly table carry its figures; the same file again is "already imported" and
 * changes nothing; 导入记录 lists it. Screenshots: ui/e2e/screenshots/cdn-usage*.png.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chinaHourLabel, formatBytes, hourStartOf } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

function timeLocal(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0800`;
}

describe.runIf(browserAvailable())('CDN usage (e2e)', () => {
  let session: Session;
  let view: TestPage;
  let logFile: string;
  // This hour: 30 requests of 2 KiB (24 HIT, 6 MISS); the hour before: 10 of 100 KiB (5 HIT, 5 MISS).
  const now = Date.now();
  const thisHour = hourStartOf(now);
  const lastHour = thisHour - 3_600_000;
  const totalBytes = 30 * 2048 + 10 * 102_400;

  beforeAll(async () => {
    session = await startSession({ WANXIANG_DEMO: 'users' });
    const token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    const res = await fetch(`${session.server.url}/api/admin/cdnDomains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'img.example.com', origin: 'origin.example.com' }),
    });
    expect(res.status).toBe(200);
    const lines: string[] = [];
    const at = (hour: number, i: number) => Math.min(now - 1000, hour + i * 1000);
    for (let i = 0; i < 10; i++)
      lines.push(
        `203.0.113.${i} - - [${timeLocal(at(lastHour, i))}] "GET /v/${i}.mp4 HTTP/1.1" 200 102400 "-" "Mozilla/5.0" ${i < 5 ? 'HIT' : 'MISS'}`,
      );
    lines.push('this is not an access log line');
    for (let i = 0; i < 30; i++)
      lines.push(
        `203.0.113.${i} - - [${timeLocal(at(thisHour, i))}] "GET /img/${i}.jpg HTTP/1.1" ${i === 0 ? 404 : 200} 2048 "-" "Mozilla/5.0" ${i < 24 ? 'HIT' : 'MISS'}`,
      );
    logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'wx-cdn-e2e-')), 'access.log');
    writeFileSync(logFile, `${lines.join('\n')}\n`);
    view = await openPage(session, { width: 1440, height: 900 });
    await useToken(view.page, token);
  });
  afterAll(async () => {
    await view?.close();
    await session?.stop();
  });

  it('uploads a log and charts it; the same file again is not counted twice', async () => {
    const { page, errors } = view;
    await page.goto('/admin/cloud/cdn/usage');
    await page.getByRole('heading', { name: 'CDN 用量' }).waitFor();
    // Nothing imported yet: 0 requests, ratio unknown.
    const stat = (title: string) =>
      page
        .locator('.wx-cdn-cards .wx-cdn-panel')
        .filter({ has: page.locator('.ant-statistic-title').getByText(title, { exact: true }) })
        .locator('.ant-statistic-content');
    await expect.poll(() => stat('请求数').textContent()).toBe('0');
    expect(await stat('缓存命中率').textContent()).toBe('未知');

    await page.getByRole('button', { name: '导入日志' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '导入访问日志' });
    await dialog.getByLabel('导入到域名').click();
    await page.locator('.ant-select-item-option').getByText('img.example.com', { exact: true }).click();
    await dialog.locator('input[type=file]').setInputFiles(logFile);
    await dialog.getByText('导入完成：41 行，其中 1 行格式错误未计入').waitFor();
    const outcome = dialog.getByLabel('导入结果');
    await expect.poll(() => outcome.textContent()).toContain('请求数40');
    expect(await outcome.textContent()).toContain(`流量${formatBytes(totalBytes)}`);
    const sample = dialog.locator('.ant-table-row').first();
    expect(await sample.textContent()).toBe('11不是 nginx combined 格式this is not an access log line');
    await screenshot(page, 'cdn-usage-import');

    // The same file again: said so, nothing added.
    await dialog.locator('input[type=file]').setInputFiles(logFile);
    await dialog.getByText(/^该日志文件已于 .* 导入过，未重复计数$/).waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();

    await expect.poll(() => stat('请求数').textContent()).toBe('40');
    expect(await stat('流量').textContent()).toBe(formatBytes(totalBytes));
    // 29 hits of 40 judged requests.
    expect(await stat('缓存命中率').textContent()).toBe(`${((29 / 40) * 100).toFixed(1)}%`);
    expect(await stat('4xx / 5xx').textContent()).toBe('1 / 0');
    await page.waitForFunction(() => document.querySelectorAll('.wx-cdn-charts canvas').length === 3);
    // The table: newest hour first, in China time.
    const rows = page.locator('.wx-cdn-table .ant-table-row');
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      chinaHourLabel(thisHour),
      '30',
      formatBytes(30 * 2048),
      '80.0%',
      '29',
      '0',
      '1',
      '0',
    ]);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual([
      chinaHourLabel(lastHour),
      '10',
      formatBytes(10 * 102_400),
      '50.0%',
      '10',
      '0',
      '0',
      '0',
    ]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'cdn-usage', { fullPage: true });

    await page.getByRole('tab', { name: '导入记录' }).click();
    const history = page.locator('[role=tabpanel]:not([hidden]) .ant-table-row');
    await expect.poll(() => history.count()).toBe(1);
    expect(await history.first().textContent()).toContain('img.example.com');
    expect(await history.first().textContent()).toContain('access.log');
    await screenshot(page, 'cdn-usage-history');
    expect(errors).toEqual([]);
  });
});
