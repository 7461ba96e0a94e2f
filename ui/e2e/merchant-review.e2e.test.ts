/**
 * The merchant review in a real browser (wechat/merchant): an application sent through the public
 * API is read as a page in four sections with its secrets masked; 驳回 asks for at least one ticked
 * field and a reason for each (core's messages); the applicant looks the number up on
 * /merchant_join, sees the reasons numbered, resubmits everything; the application is back under
 * review and 通过 moves it to the machine's next state (待账户验证).
 */
import type { Page } from 'playwright-core';
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

// A 1×1 PNG: the licence image (its type is read from these bytes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function applyThroughApi(baseUrl: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'licence.png');
  const upload = await fetch(`${baseUrl}/api/public/merchant-applications/license-image`, {
    method: 'POST',
    body: form,
  });
  const { data: image } = (await upload.json()) as { data: { url: string } };
  const res = await fetch(`${baseUrl}/api/public/merchant-applications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      contactName: '王小明',
      contactMobile: '13800138000',
      contactEmail: 'wang@example.com',
      subjectType: 'enterprise',
      merchantName: '杭州知味餐饮管理有限公司',
      licenseNumber: '91330106MA2B3C4D5E',
      licenseImage: image.url,
      legalPerson: '王大明',
      idNumber: '110101199003071234',
      shortName: '知味',
      servicePhone: '0571-88888888',
      scenes: ['store', 'miniProgram'],
      bankAccountType: 'corporate',
      accountName: '杭州知味餐饮管理有限公司',
      bankName: '中国工商银行',
      bankBranch: '杭州西湖支行',
      accountNumber: '6222020200112233445',
    }),
  });
  const body = (await res.json()) as { data: { number: string } };
  expect(res.status).toBe(200);
  return body.data.number;
}

/** Opens the application of `number` from the review board (the 待审核 filter by default). */
async function openApplication(page: Page, number: string, shot?: string) {
  await page.goto('/admin/wechat/merchant');
  const row = page.locator('.wx-mr-board tbody tr').filter({ hasText: number });
  await row.waitFor();
  if (shot) await screenshot(page, shot);
  await row.getByRole('button', { name: /^审\s?核$/ }).click();
  const review = page.getByTestId('merchant-review');
  await review.waitFor();
  return review;
}

describe.runIf(browserAvailable())('merchant review (e2e)', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession();
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('reject per field → the applicant sees the reasons and resubmits → under review again → 通过', async () => {
    const number = await applyThroughApi(session.server.url);
    const token = await apiSignIn(session.server.url, 'admin', TEST_ADMIN_PASSWORD);

    // The reviewer reads the application as a page; the secrets only masked.
    const admin = await openPage(session, { height: 1000 });
    await useToken(admin.page, token);
    const review = await openApplication(admin.page, number, 'merchant-review-board');
    for (const title of ['联系人', '主体资料', '经营资料', '结算账户'])
      await review.getByRole('region', { name: title }).waitFor();
    await review.getByText('110***********1234').waitFor();
    await review.getByText('622************3445').waitFor();
    expect(await review.textContent()).not.toContain('110101199003071234');
    expect(await review.textContent()).not.toContain('6222020200112233445');
    await review.getByText('企业', { exact: true }).waitFor();
    await review.getByText('小程序', { exact: true }).waitFor();
    expect(
      await review.locator('.wx-mr-licence img').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(1);
    await screenshot(admin.page, 'merchant-review', { fullPage: true });

    // 驳回 with nothing ticked, then a ticked field without a reason: core's messages, no request.
    const actions: string[] = [];
    admin.page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/admin/merchantApplications/'))
        actions.push(r.url());
    });
    await review.getByRole('button', { name: /^驳\s?回$/ }).click();
    await review.getByRole('button', { name: '提交驳回' }).click();
    await review.getByText('请至少勾选一个有问题的字段').waitFor();
    await review.getByRole('checkbox', { name: '驳回：商户简称' }).check();
    await review.getByRole('checkbox', { name: '驳回：营业执照照片' }).check();
    await review.getByRole('button', { name: '提交驳回' }).click();
    await review.getByText('请填写「营业执照照片」的驳回原因').waitFor();
    await review.getByText('请填写「商户简称」的驳回原因').waitFor();
    await review.getByLabel('营业执照照片的驳回原因').fill('照片模糊，请上传清晰的原件照片');
    await review.getByLabel('商户简称的驳回原因').fill('长'.repeat(201));
    await review.getByRole('button', { name: '提交驳回' }).click();
    await review.getByText('「商户简称」的驳回原因最多200个字符').waitFor();
    expect(actions).toEqual([]);
    await review.getByLabel('商户简称的驳回原因').fill('简称须与门头招牌一致');
    await admin.page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin.page, 'merchant-review-reject', { fullPage: true });
    await review.getByRole('button', { name: '提交驳回' }).click();
    await review.locator('.ant-tag').getByText('已驳回').waitFor();
    await review.getByText('已驳回，等待申请人修改').waitFor();
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatch(/\/reject$/);

    // The applicant looks the number up and sees the reasons by number, in the page's order.
    const applicant = await openPage(session);
    const { page } = applicant;
    await page.goto('/merchant_join');
    await page.getByLabel('申请编号').fill(number);
    await page.getByRole('button', { name: /查询$/ }).click();
    await page.getByTestId('status-label').getByText('已驳回').waitFor();
    const reasons = page.locator('.wx-mj-reasons li');
    expect(await reasons.allTextContents()).toEqual([
      '营业执照照片：照片模糊，请上传清晰的原件照片',
      '商户简称：简称须与门头招牌一致',
    ]);
    await screenshot(page, 'merchant-review-applicant-reasons', { fullPage: true });

    // Resubmits the whole application with the fixes.
    await page.getByRole('button', { name: '修改资料并重新提交' }).click();
    await page.getByText(`正在修改申请 ${number}`).waitFor();
    const next = () => page.getByRole('button', { name: '下一步' }).click();
    // The form opens on the first step with a reason (主体资料): go back to the start.
    while (!(await page.getByLabel('联系人姓名').isVisible()))
      await page.getByRole('button', { name: '上一步' }).click();
    await page.getByLabel('联系人姓名').fill('王小明');
    await page.getByLabel('联系人手机').fill('13800138000');
    await page.getByLabel('联系邮箱').fill('wang@example.com');
    await next();
    await page.getByLabel('主体名称').fill('杭州知味餐饮管理有限公司');
    await page.getByLabel('统一社会信用代码').fill('91330106MA2B3C4D5E');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: '营业执照.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done, .ant-upload-list-item-success').first().waitFor();
    await page.getByLabel('法定代表人', { exact: true }).fill('王大明');
    await page.getByLabel('法定代表人身份证号').fill('110101199003071234');
    await next();
    await page.getByLabel('商户简称').fill('知味面馆');
    await page.getByLabel('客服电话').fill('0571-88888888');
    await page.getByLabel('线下门店').check();
    await next();
    await page.getByLabel('开户名称').fill('杭州知味餐饮管理有限公司');
    await page.getByLabel('开户银行').fill('中国工商银行');
    await page.getByLabel('银行账号').fill('6222020200112233445');
    await page.getByRole('button', { name: '重新提交', exact: true }).click();
    await page.getByText('当前状态：审核中').waitFor();
    expect(applicant.errors).toEqual([]);
    await applicant.close();

    // Back under review with the new short name; 通过 → the machine's next state.
    const again = await openApplication(admin.page, number);
    await again.locator('.ant-tag').getByText('审核中').waitFor();
    await again.getByRole('heading').getByText('知味面馆').waitFor();
    await again.getByRole('button', { name: /^通\s?过$/ }).click();
    await admin.page.locator('.ant-modal-confirm').getByText('将进入「待账户验证」。').waitFor();
    await admin.page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /^通\s?过$/ })
      .click();
    await again.locator('.ant-tag').getByText('待账户验证').waitFor();
    await again.getByRole('button', { name: '账户已验证' }).waitFor();
    expect(await again.getByRole('button', { name: /^驳\s?回$/ }).count()).toBe(0);
    await admin.page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin.page, 'merchant-review-approved', { fullPage: true });
    expect(admin.errors).toEqual([]);
    await admin.close();
  });
});
