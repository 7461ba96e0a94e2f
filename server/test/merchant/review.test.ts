/**
 * The admin's review of merchant applications (wechat/merchant): rejection reasons checked by
 * core's rule (422 per field, nothing written), the machine's transitions in order, and 409 for
 * any transition the machine does not allow from the row's state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

const BASE = '/api/admin/merchantApplications';

describe.each(DB_KINDS)('merchant review on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let seq = 0;

  /** A new application under review (created and submitted as the admin). */
  async function underReview(): Promise<{ id: number; updatedAt: string }> {
    seq += 1;
    const created = await api.post(BASE, {
      number: `REVIEW${String(seq).padStart(4, '0')}`,
      contactName: '王小明',
      contactMobile: '13800138000',
      contactEmail: 'wang@example.com',
      subjectType: 'enterprise',
      merchantName: '杭州知味餐饮管理有限公司',
      licenseNumber: '91330106MA2B3C4D5E',
      licenseImage: '/uploads/licence.png',
      legalPerson: '王大明',
      idNumber: '110101199003071234',
      shortName: '知味面馆',
      servicePhone: '0571-88888888',
      scenes: ['store'],
      bankAccountType: 'corporate',
      accountName: '杭州知味餐饮管理有限公司',
      bankName: '中国工商银行',
      accountNumber: '6222020200112233445',
    });
    expect(created.status, created.text).toBe(200);
    const submitted = await api.post(`${BASE}/${created.body.data.id}/submit`);
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.data.status).toBe('auditing');
    return submitted.body.data;
  }
  const read = async (id: number) => (await api.get(`${BASE}/${id}`)).body.data;

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  it('reads secrets only masked', async () => {
    const { id } = await underReview();
    const row = await read(id);
    expect(row).toMatchObject({
      idNumber: '******',
      idNumberMasked: '110***********1234',
      accountNumber: '******',
      accountNumberMasked: '622************3445',
    });
  });

  it.each([
    ['no field', [], 'auditDetail', '请至少勾选一个有问题的字段'],
    [
      'a ticked field without reason',
      [{ field: 'shortName', reason: ' ' }],
      'shortName',
      '请填写「商户简称」的驳回原因',
    ],
    [
      'a reason over 200 characters',
      [{ field: 'bankName', reason: '长'.repeat(201) }],
      'bankName',
      '「开户银行」的驳回原因最多200个字符',
    ],
    [
      'a field the applicant never filled',
      [{ field: 'status', reason: '不对' }],
      'auditDetail',
      '没有「status」这个字段',
    ],
  ])('refuses a rejection with %s (422, nothing changed)', async (_, auditDetail, key, message) => {
    const { id } = await underReview();
    const before = await read(id);
    const res = await api.post(`${BASE}/${id}/reject`, { auditDetail });
    expect(res.status, res.text).toBe(422);
    expect(res.body.data.fields[key]).toBe(message);
    expect(await read(id)).toEqual(before);
  });

  it('rejects with per-field reasons (trimmed), then 409 for a second rejection or an approval', async () => {
    const { id } = await underReview();
    const res = await api.post(`${BASE}/${id}/reject`, {
      auditDetail: [
        { field: 'licenseImage', reason: ' 照片模糊，请重新拍摄 ' },
        { field: 'accountNumber', reason: '账号与开户名称不符' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'rejected',
      auditDetail: [
        { field: 'licenseImage', reason: '照片模糊，请重新拍摄' },
        { field: 'accountNumber', reason: '账号与开户名称不符' },
      ],
    });
    for (const action of ['reject', 'approve', 'confirm', 'finish']) {
      const refused = await api.post(`${BASE}/${id}/${action}`, {
        auditDetail: [{ field: 'shortName', reason: '再驳回一次' }],
      });
      expect(refused.status, `${action}: ${refused.text}`).toBe(409);
      expect(refused.body.message).toBe('当前状态不能执行此操作');
    }
    expect((await read(id)).status).toBe('rejected');
  });

  it('walks the machine auditing → to_be_confirmed → to_be_signed → signing → finished, refusing skips', async () => {
    const { id } = await underReview();
    // Skipping ahead is refused.
    expect((await api.post(`${BASE}/${id}/sign`)).status).toBe(409);
    const path: [string, string][] = [
      ['approve', 'to_be_confirmed'],
      ['confirm', 'to_be_signed'],
      ['sign', 'signing'],
      ['finish', 'finished'],
    ];
    for (const [action, status] of path) {
      const res = await api.post(`${BASE}/${id}/${action}`);
      expect(res.status, `${action}: ${res.text}`).toBe(200);
      expect(res.body.data.status).toBe(status);
    }
    expect((await read(id)).finishedAt).toBeTruthy();
    for (const action of ['cancel', 'approve', 'submit']) {
      const res = await api.post(`${BASE}/${id}/${action}`);
      expect(res.status, action).toBe(409);
    }
  });
});
