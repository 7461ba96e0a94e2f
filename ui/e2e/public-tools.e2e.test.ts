/**
 * The public tools in a real browser: /color (palette, contrast, copy), /tool/google_code (codes
 * computed in the page, no request carries the secret, a new secret with its QR) and
 * /merchant_join (field messages, a full application, its status, the admin API sees it).
 */
import { generate } from '@ant-design/colors';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openPage,
  type Session,
  screenshot,
  screenshotsAtBothWidths,
  startSession,
  TEST_ADMIN_PASSWORD,
} from './harness';

const SECRET = 'JBSWY3DPEHPK3PXP';
const FROZEN = new Date('2025-03-01T08:00:10Z');
// A 1×1 PNG: the licence image (its type is read from these bytes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.runIf(browserAvailable())('public tools (e2e)', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession();
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('/color: palette, notations and contrast of a typed colour; a click copies', async () => {
    const { page, context, errors, close } = await openPage(session);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
    await page.goto('/color');
    await page.getByRole('heading', { name: '配色工具', exact: true }).waitFor();
    const input = page.getByLabel('颜色值');
    await input.fill('#722ED1');
    await expect.poll(() => new URL(page.url()).searchParams.get('c')).toBe('722ed1');

    const shades = page.getByTestId('shade');
    expect(await shades.count()).toBe(10);
    const expected = generate('#722ed1').map((h) => h.toLowerCase());
    expect(await shades.locator('.wx-shade-hex').allTextContents()).toEqual(expected);
    expect(expected[5]).toBe('#722ed1');
    expect(await page.getByTestId('value-hex').textContent()).toBe('#722ed1');
    expect(await page.getByTestId('value-rgb').textContent()).toBe('rgb(114, 46, 209)');
    expect(await page.getByTestId('value-hsl').textContent()).toBe('hsl(265, 64%, 50%)');

    // #1677ff: 4.10 : 1 on white (AA fails for body text, passes for large), 5.11 : 1 on black.
    await input.fill('rgb(22, 119, 255)');
    await page.getByTestId('value-hex').getByText('#1677ff').waitFor();
    const white = page.getByTestId('contrast-white');
    const black = page.getByTestId('contrast-black');
    expect(await white.getByTestId('ratio').textContent()).toBe('4.10 : 1');
    expect(await black.getByTestId('ratio').textContent()).toBe('5.11 : 1');
    expect(await white.locator('.wx-badge-fail').allTextContents()).toEqual([
      'AA 正文未通过',
      'AAA 正文未通过',
      'AAA 大字未通过',
    ]);
    expect(await white.locator('.wx-badge-pass').allTextContents()).toEqual(['AA 大字通过']);
    expect(await black.locator('.wx-badge-pass').count()).toBe(3);

    await page.getByTestId('value-rgb').click();
    await page.locator('.ant-message').getByText('已复制 RGB：rgb(22, 119, 255)').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('rgb(22, 119, 255)');
    // A shade: hover shows its values, a click copies its HEX.
    await shades.nth(8).hover();
    await page.getByRole('heading', { name: /第 9 级色/ }).waitFor();
    expect(await page.getByTestId('value-hex').textContent()).toBe('#002c8c');
    await shades.nth(8).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('#002c8c');

    // Nonsense is said to be nonsense.
    await input.fill('蓝色');
    await page.getByRole('alert').getByText('无法识别这个颜色').waitFor();
    await input.fill('#1677ff');
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 });
    await screenshotsAtBothWidths(page, 'color');
    expect(errors).toEqual([]);
    await close();
  });

  it('/tool/google_code: the code of a known secret, computed in the page; a new secret with its QR', async () => {
    const { page, errors, close } = await openPage(session);
    const sent: string[] = [];
    page.on('request', (request) => {
      sent.push(
        `${request.method()} ${request.url()} ${request.postData() ?? ''} ${JSON.stringify(request.headers())}`,
      );
    });
    await page.clock.setFixedTime(FROZEN);
    await page.goto('/tool/google_code');
    await page.getByRole('heading', { name: '动态口令', exact: true }).waitFor();
    await page
      .getByLabel('Base32 密钥或 otpauth:// 链接')
      .fill(SECRET.toLowerCase().replace(/(.{4})/g, '$1 '));

    const totp = new TOTP({ secret: SECRET });
    const now = FROZEN.getTime();
    const code = totp.generate({ timestamp: now });
    const next = totp.generate({ timestamp: now + 30_000 });
    await page.getByTestId('current-code').waitFor();
    expect(await page.getByTestId('current-code').getAttribute('data-code')).toBe(code);
    expect((await page.getByTestId('next-code').textContent())?.replace(/\s/g, '')).toBe(next);
    expect(await page.getByTestId('seconds-left').textContent()).toBe('20');
    expect(await page.getByRole('timer').getAttribute('aria-label')).toBe('20 秒后更新');

    // An otpauth URI with its own parameters.
    const uri = `otpauth://totp/ACME:alice?secret=${SECRET}&algorithm=SHA256&digits=8&period=60&issuer=ACME`;
    await page.getByLabel('Base32 密钥或 otpauth:// 链接').fill(uri);
    const sha256 = new TOTP({ secret: SECRET, algorithm: 'SHA256', digits: 8, period: 60 }).generate({
      timestamp: now,
    });
    await expect.poll(() => page.getByTestId('current-code').getAttribute('data-code')).toBe(sha256);
    const meta = await page.getByRole('list', { name: '口令参数' }).textContent();
    expect(meta).toContain('算法 SHA256');
    expect(meta).toContain('位数 8');
    expect(meta).toContain('周期 60 秒');
    expect(meta).toContain('发行方 ACME');

    // Bad input: a clear Chinese message.
    await page.getByLabel('Base32 密钥或 otpauth:// 链接').fill('JBSWY3DP-1234-5678');
    await page.getByRole('alert').getByText('密钥不是有效的 Base32：只能包含字母 A–Z 和数字 2–7').waitFor();
    await page.getByLabel('Base32 密钥或 otpauth:// 链接').fill(SECRET);

    // A new secret: its QR image and URI.
    await page.getByLabel('账号').fill('alice@example.com');
    await page.getByRole('button', { name: '生成新密钥' }).click();
    const qr = page.getByTestId('qr');
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    const newSecret = ((await page.getByTestId('new-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(newSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.getByTestId('new-uri').textContent()).toContain(`secret=${newSecret}`);
    await page.getByRole('button', { name: '用这个密钥查看验证码' }).click();
    await expect
      .poll(() => page.getByTestId('current-code').getAttribute('data-code'))
      .toBe(new TOTP({ secret: newSecret }).generate({ timestamp: now }));

    await screenshotsAtBothWidths(page, 'google-code');
    // No request of the whole visit carried a secret (the page's own assets only).
    for (const secret of [SECRET, SECRET.toLowerCase(), newSecret])
      expect(sent.filter((line) => line.includes(secret))).toEqual([]);
    expect(sent.filter((line) => line.includes('/api/') && !line.includes('/api/public/config'))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('/merchant_join: field messages, a full application, its status, and the admin sees it', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/merchant_join');
    await page.getByRole('heading', { name: '商户入驻', exact: true }).waitFor();
    await screenshotsAtBothWidths(page, 'merchant-join');

    // Step 1 with nothing and a bad mobile: per-field messages, no request.
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('请输入联系人姓名').waitFor();
    await page.getByText('请输入联系人手机').waitFor();
    await page.getByText('请输入联系邮箱').waitFor();
    await page.getByLabel('联系人手机').fill('12345');
    await page.getByLabel('联系邮箱').fill('not-an-email');
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('联系人手机：请输入 11 位手机号').waitFor();
    await page.getByText('联系邮箱不是一个有效的邮箱地址').waitFor();
    expect(posts).toEqual([]);

    await page.getByLabel('联系人姓名').fill('王小明');
    await page.getByLabel('联系人手机').fill('13800138000');
    await page.getByLabel('联系邮箱').fill('wang@example.com');
    await page.getByRole('button', { name: '下一步' }).click();

    // Step 2: a bad credit code is caught before leaving the step.
    await page.getByLabel('主体名称').fill('杭州知味餐饮管理有限公司');
    await page.getByLabel('统一社会信用代码').fill('123');
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('统一社会信用代码：请输入 18 位统一社会信用代码').waitFor();
    await page.getByText('请输入营业执照照片').waitFor();
    await page.getByLabel('统一社会信用代码').fill('91330106MA2B3C4D5E');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: '营业执照.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done, .ant-upload-list-item-success').first().waitFor();
    await page.getByLabel('法定代表人', { exact: true }).fill('王大明');
    await page.getByLabel('法定代表人身份证号').fill('110101199003071234');
    await page.getByRole('button', { name: '下一步' }).click();

    // Step 3
    await page.getByLabel('商户简称').fill('知味面馆');
    await page.getByLabel('客服电话').fill('0571-88888888');
    await page.getByLabel('小程序').check();
    await page.getByRole('button', { name: '下一步' }).click();

    // Step 4
    await page.getByLabel('开户名称').fill('杭州知味餐饮管理有限公司');
    await page.getByLabel('开户银行').fill('中国工商银行');
    await page.getByLabel('开户支行').fill('杭州西湖支行');
    await page.getByLabel('银行账号').fill('6222020200112233445');
    await screenshotsAtBothWidths(page, 'merchant-join-step4');
    await page.getByRole('button', { name: '提交申请' }).click();

    const numberBox = page.getByTestId('application-number');
    await numberBox.waitFor();
    const number = (await numberBox.textContent())?.trim() ?? '';
    expect(number).toMatch(/^MJ\d{8}[A-Z2-9]{10}$/);
    await page.getByText('当前状态：审核中').waitFor();
    await screenshotsAtBothWidths(page, 'merchant-join-done');

    await page.getByRole('button', { name: '查询进度' }).click();
    await page.getByTestId('status-label').getByText('审核中').waitFor();

    // A fresh visitor looks it up by number.
    await page.goto('/merchant_join');
    await page.getByLabel('申请编号').fill(number);
    await page.getByRole('button', { name: /查询$/ }).click();
    await page.getByTestId('status-label').getByText('审核中').waitFor();
    await page.getByLabel('申请编号').fill('MJ20990101AAAAAAAAAA');
    await page.getByRole('button', { name: /查询$/ }).click();
    await page.getByText('没有找到这个申请编号，请核对后再试').waitFor();

    // The admin API lists it, under review, with the secrets masked.
    const token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);
    const res = await fetch(`${session.server.url}/api/admin/merchantApplications?number=${number}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const [row] = ((await res.json()) as { data: { results: Record<string, unknown>[] } }).data.results;
    expect(row).toMatchObject({
      number,
      status: 'auditing',
      contactName: '王小明',
      shortName: '知味面馆',
      scenes: ['store', 'miniProgram'],
      idNumber: '******',
      accountNumber: '******',
    });
    // The unknown number's lookup answers 404, which the browser logs.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await close();
  });

  it('/merchant_join: the status shows China Standard Time in a browser set to UTC', async () => {
    const { page, errors, close } = await openPage(session, { timezoneId: 'UTC' });
    const number = 'MJ20240502ABCDEFGH23';
    // Submitted at 03:14 China time on 2 May, which is 19:14 UTC on 1 May.
    await page.route(`**/api/public/merchant-applications/${number}`, (route) =>
      route.fulfill({
        json: {
          success: true,
          data: {
            number,
            status: 'auditing',
            statusLabel: '审核中',
            shortName: '知味面馆',
            submittedAt: '2024-05-01T19:14:00.000Z',
            updatedAt: '2024-05-01T16:05:00.000Z',
            auditDetail: [],
            canResubmit: false,
          },
        },
      }),
    );
    await page.goto('/merchant_join');
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
    await page.getByLabel('申请编号').fill(number);
    await page.getByRole('button', { name: /查询$/ }).click();
    const result = page.getByTestId('status-result');
    await result.waitFor();
    const value = (label: string) =>
      result
        .locator('.ant-descriptions-item')
        .filter({ hasText: label })
        .locator('.ant-descriptions-item-content');
    expect(await value('提交时间').textContent()).toBe('2024-05-02 03:14');
    expect(await value('最近更新').textContent()).toBe('2024-05-02 00:05');
    await screenshot(page, 'merchant-join-status-utc');
    expect(errors).toEqual([]);
    await close();
  });
});
