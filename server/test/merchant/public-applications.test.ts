import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PER_HOUR } from '../../src/domain/merchant/public-routes.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

const ID_NUMBER = '110101199003071234';
const ACCOUNT_NUMBER = '6222020200112233445';

describe.each(DB_KINDS)('public merchant applications on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let licenseImage: string;

  const post = (url: string, payload: unknown, remoteAddress = '203.0.113.10') =>
    t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const submit = (payload: unknown, remoteAddress?: string) =>
    post('/api/public/merchant-applications', payload, remoteAddress);

  const upload = (bytes: Buffer, remoteAddress = '203.0.113.10') => {
    const boundary = '----wxmerchant';
    return t.app.inject({
      method: 'POST',
      url: '/api/public/merchant-applications/license-image',
      remoteAddress,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="licence.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
  };

  const valid = () => ({
    contactName: '王小明',
    contactMobile: '13800138000',
    contactEmail: 'wang@example.com',
    subjectType: 'enterprise',
    merchantName: '杭州知味餐饮管理有限公司',
    licenseNumber: '91330106MA2B3C4D5E',
    licenseImage,
    legalPerson: '王大明',
    idNumber: ID_NUMBER,
    shortName: '知味面馆',
    servicePhone: '0571-88888888',
    scenes: ['store', 'miniProgram'],
    bankAccountType: 'corporate',
    accountName: '杭州知味餐饮管理有限公司',
    bankName: '中国工商银行',
    bankBranch: '杭州西湖支行',
    accountNumber: ACCOUNT_NUMBER,
  });

  const rowCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('merchant_applications' as never)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startTestApp(kind);
    api = await adminApi(t);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#1677ff' } })
      .png()
      .toBuffer();
    const res = await upload(png);
    expect(res.statusCode, res.body).toBe(200);
    licenseImage = res.json().data.url;
  });
  afterAll(async () => t?.close());

  it('uploads the licence image by its magic bytes and refuses anything else', async () => {
    expect(licenseImage).toMatch(/^\/api\/files\/[0-9a-f]{32}\.png$/);
    expect((await get(licenseImage)).headers['content-type']).toBe('image/png');
    const res = await upload(Buffer.from('%PDF-1.4 not an image at all, just text'));
    expect(res.statusCode).toBe(422);
    expect(res.json().data.fields.file).toBe('不支持的图片格式，请上传 JPG、PNG、WEBP 文件');
  });

  it('refuses bad input with per-field Chinese messages and stores nothing', async () => {
    const before = await rowCount();
    const res = await submit({
      ...valid(),
      contactName: '',
      contactMobile: '12345',
      contactEmail: 'not-mail',
      subjectType: 'alien',
      licenseNumber: 'abc',
      idNumber: '123',
      scenes: [],
      accountNumber: '12ab',
    });
    expect(res.statusCode).toBe(422);
    const { fields } = res.json().data;
    expect(fields).toMatchObject({
      contactName: '请输入联系人姓名',
      contactMobile: '联系人手机：请输入 11 位手机号',
      contactEmail: '联系邮箱不是一个有效的邮箱地址',
      licenseNumber: '统一社会信用代码：请输入 18 位统一社会信用代码',
      idNumber: '法定代表人身份证号：请输入 18 位身份证号',
      accountNumber: '银行账号须在8-30字符之间',
    });
    expect(fields.subjectType).toMatch(/^主体类型必须是其中一个/);
    expect(fields.scenes).toBe('最少1个经营场景');
    // Fields the server owns are refused, not silently taken.
    const sneaky = await submit({ ...valid(), status: 'finished' });
    expect(sneaky.statusCode).toBe(422);
    expect(sneaky.json().data.fields.status).toBe('不支持的字段 status');
    // A licence image that was not uploaded here.
    const outside = await submit({ ...valid(), licenseImage: 'https://evil.example.com/x.png' });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().data.fields.licenseImage).toBe('请上传营业执照照片');
    expect(await rowCount()).toBe(before);
  });

  it('stores a valid application under review, answers its number, and shows it to the admin', async () => {
    const res = await submit(valid());
    expect(res.statusCode, res.body).toBe(200);
    const { number, status, statusLabel } = res.json().data;
    expect(number).toMatch(/^MJ20250101[A-HJ-NP-Z2-9]{10}$/);
    expect({ status, statusLabel }).toEqual({ status: 'auditing', statusLabel: '审核中' });

    const lookup = await get(`/api/public/merchant-applications/${number}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json().data).toMatchObject({
      number,
      status: 'auditing',
      statusLabel: '审核中',
      shortName: '知味面馆',
      auditDetail: [],
      canResubmit: false,
      submittedAt: new Date(t.clock.now()).toISOString(),
    });
    // Nothing personal, not even masked.
    for (const secret of ['13800138000', 'wang@example.com', '王大明', '1234', '3445', '******', '王小明'])
      expect(lookup.body).not.toContain(secret);

    const admin = await api.get(`/api/admin/merchantApplications?number=${number}`);
    expect(admin.status).toBe(200);
    const [row] = admin.body.data.results;
    expect(row).toMatchObject({
      number,
      status: 'auditing',
      contactName: '王小明',
      shortName: '知味面馆',
      scenes: ['store', 'miniProgram'],
      licenseImage,
      idNumber: '******',
      idNumberMasked: expect.stringMatching(/^110\*+1234$/),
      accountNumber: '******',
    });
    const audits = await api.get(
      `/api/admin/auditLogs?resource=merchantApplications&recordId=${row.id}&sort=id`,
    );
    expect(audits.body.data.results.map((a: { action: string }) => a.action)).toEqual([
      'merchantApplications.create',
      'merchantApplications.submit',
    ]);
    expect(audits.body.data.results[0]).toMatchObject({ userId: null, ip: '203.0.113.10' });
  });

  it('shows per-field reasons when rejected; resubmitting the number overwrites it', async () => {
    const { number } = (await submit(valid(), '203.0.113.20')).json().data;
    const [row] = (await api.get(`/api/admin/merchantApplications?number=${number}`)).body.data.results;
    // Under review: the number cannot be resubmitted.
    const early = await submit({ ...valid(), number }, '203.0.113.20');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('申请审核中，只有已驳回的申请可以修改后重新提交');

    const reject = await api.post(`/api/admin/merchantApplications/${row.id}/reject`, {
      auditDetail: [{ field: 'shortName', reason: '简称与门头照片不一致' }],
    });
    expect(reject.status, reject.text).toBe(200);
    const rejected = (await get(`/api/public/merchant-applications/${number}`)).json().data;
    expect(rejected).toMatchObject({
      status: 'rejected',
      statusLabel: '已驳回',
      canResubmit: true,
      auditDetail: [{ field: 'shortName', label: '商户简称', reason: '简称与门头照片不一致' }],
    });

    // A bad resubmission changes nothing.
    const bad = await submit({ ...valid(), number, shortName: '' }, '203.0.113.20');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data.fields.shortName).toBe('请输入商户简称');

    const again = await submit({ ...valid(), number, shortName: '知味面馆（西湖店）' }, '203.0.113.20');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual({ number, status: 'auditing', statusLabel: '审核中' });
    const [after] = (await api.get(`/api/admin/merchantApplications?number=${number}`)).body.data.results;
    expect(after).toMatchObject({
      id: row.id,
      shortName: '知味面馆（西湖店）',
      status: 'auditing',
      auditDetail: null,
    });
    expect((await get(`/api/public/merchant-applications/${number}`)).json().data.auditDetail).toEqual([]);
  });

  it('answers 404 for numbers it does not know, and never lets a visitor choose a new number', async () => {
    expect((await get('/api/public/merchant-applications/MJ20250101AAAAAAAAAA')).statusCode).toBe(404);
    expect((await get('/api/public/merchant-applications/x')).statusCode).toBe(404);
    const chosen = await submit({ ...valid(), number: 'MY-OWN-NUMBER' }, '203.0.113.30');
    expect(chosen.statusCode).toBe(404);
    expect(chosen.json().message).toBe('没有找到这个申请编号');
  });

  it(`allows ${SUBMISSIONS_PER_HOUR} submissions per address per hour, then 429 with Retry-After`, async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < SUBMISSIONS_PER_HOUR; i++) {
      t.clock.advance(60_000);
      expect((await submit(valid(), ip)).statusCode).toBe(200);
    }
    const before = await rowCount();
    const refused = await submit(valid(), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, errorCode: 429 });
    // The first of the five leaves the window 56 minutes from now.
    expect(refused.headers['retry-after']).toBe(String(56 * 60));
    expect(await rowCount()).toBe(before);
    // Another address is not affected; the same one may again once the hour has passed.
    expect((await submit(valid(), '198.51.100.8')).statusCode).toBe(200);
    t.clock.advance(56 * 60_000 + 1);
    expect((await submit(valid(), ip)).statusCode).toBe(200);
  });
});
