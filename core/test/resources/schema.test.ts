/**
 * The zod validation derived from real definitions: what a create accepts and what it refuses,
 * with the zh-CN form messages of spec §5 carrying each field's label.
 */
import { describe, expect, it } from 'vitest';
import {
  defineResource,
  f,
  format,
  formMessages,
  getResource,
  RESOURCES,
  resourceSchema,
  validateBody,
  validateInput,
} from '../../src/index';

const create = (name: string, body: unknown) => validateBody(getResource(name), body, 'create');
const update = (name: string, body: unknown) => validateBody(getResource(name), body, 'update');
/** The field errors of a body that must fail. */
function errors(result: ReturnType<typeof validateBody>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.fields;
}
function value(result: ReturnType<typeof validateBody>) {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.fields)}`);
  return result.value;
}
const m = (template: string, values: Record<string, string | number>) => format(template, values);

/** A valid create body for resources across every module. */
const VALID: Record<string, Record<string, unknown>> = {
  stores: { name: '朝阳门店', phone: '010-88886666', address: '北京市朝阳区建国路 88 号' },
  printers: { storeId: 1, name: '前台打印机', host: '192.168.1.50' },
  discounts: {
    name: '午市满减',
    tiers: [
      { thresholdFen: 3000, reduceFen: 500 },
      { thresholdFen: 5000, reduceFen: 1000 },
    ],
    startAt: '2024-05-01T00:00:00+08:00',
    endAt: '2024-05-31T23:59:59+08:00',
  },
  couponTemplates: { name: '新人 5 元券', kind: 'cash', valueFen: 500, validity: 'relative' },
  couponRules: { name: '注册送券', trigger: 'register', templateId: 3, qty: 2 },
  banners: {
    title: '夏日新品',
    position: 'homeCarousel',
    image: '/api/files/12',
    link: '/pages/goods/index?id=1',
  },
  appModules: { key: 'memberCard', name: '会员卡', config: { showBalance: true } },
  cardProducts: { name: '储值 500 送 50', faceValueFen: 50_000, priceFen: 50_000, bonusFen: 5000 },
  runners: { name: '王师傅', phone: '13800138000', storeIds: [1, 2], vehicle: 'ebike' },
  suppliers: { name: '新发地蔬菜批发', contact: '李经理', phone: '13900139000', categories: ['vegetable'] },
  supplyProducts: { supplierId: 1, name: '土豆', unit: 'kg', costFen: 250, stock: 120.5, safetyStock: 30 },
  bbsNodes: { name: '美食分享', sort: 1 },
  bbsTopics: { nodeId: 1, authorId: 2, title: '周末探店', content: '推荐一家**好吃**的面馆', tags: [1, 2] },
  bbsPosts: { topicId: 1, authorId: 3, content: '同去过，确实不错' },
  bbsTags: { name: '探店', color: 'volcano' },
  chatBots: { name: '小助手', rules: [{ keyword: '营业时间', reply: '每天 9:00-21:00' }] },
  sensitiveWords: { word: '加微信', category: 'ad' },
  articles: { title: '万象上线了', content: '# 你好\n正文', tags: ['公告'] },
  photos: { title: '西湖日落', image: '/api/files/3', album: '杭州', takenAt: '2023-10-01T18:20:00+08:00' },
  docs: { title: '中华人民共和国劳动合同法', categoryId: 1, publishDate: '2007-06-29', validity: 'amended' },
  docCategories: { name: '劳动法', sort: 1 },
  docPages: { docId: 1, pageNo: 1, content: '第一章 总则 第一条 为了完善劳动合同制度……' },
  docTags: { name: '劳动' },
  docTagRules: { keyword: '劳动合同', tagId: 1 },
  lawyers: {
    name: '张律师',
    firm: '北京市某某律师事务所',
    licenseNo: '11101201010123456',
    city: '北京',
    specialties: ['labor', 'contract'],
    years: 8,
  },
  workTools: { name: '工伤赔偿计算器', kind: 'calculator', url: 'https://example.com/calc' },
  invites: { code: 'LAW2024ABC', role: 'editor', maxUses: 10 },
  tracks: { title: '茉莉花', artist: '民歌', audio: '/api/files/9', durationS: 180 },
  movies: { title: '霸王别姬', year: 1993, genres: ['drama'], region: 'cn', rating: 9.6 },
  monitorJobs: { name: '官网', url: 'https://example.com/', intervalS: 60 },
  sslJobs: { host: 'www.example.com', port: 443 },
  sslDeployments: {
    name: 'example.com 2024',
    certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    privateKey: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----',
    domains: ['example.com', '*.example.com'],
    cdnDomainId: 1,
  },
  marketApis: { code: 'totp-verify', name: '动态口令校验', handler: 'totp', rateLimitPerMin: 60 },
  apiPlans: { apiId: 1, name: '1 万次/30 天', calls: 10_000, periodDays: 30, priceFen: 990 },
  apiQuotas: { userId: 2, apiId: 1, remaining: 500 },
  cdnDomains: {
    domain: 'static.example.com',
    origin: 'https://origin.example.com:8443',
    cacheRules: [{ path: '*.jpg', ttlS: 86_400 }],
  },
  merchantApplications: {
    number: 'APPLY202405010001',
    contactName: '王小明',
    contactMobile: '13800138000',
    contactEmail: 'wang@example.com',
    subjectType: 'enterprise',
    merchantName: '北京万象餐饮管理有限公司',
    licenseNumber: '91110105MA01ABCD2X',
    licenseImage: '/api/files/20',
    legalPerson: '王小明',
    idNumber: '11010519491231002X',
    shortName: '万象餐饮',
    servicePhone: '400-800-8888',
    scenes: ['store', 'miniProgram'],
    bankAccountType: 'corporate',
    accountName: '北京万象餐饮管理有限公司',
    bankName: '招商银行',
    accountNumber: '6214830100001234',
  },
  users: { username: 'zhang_san', password: 'secret-123', nickname: '张三', roles: ['operator'] },
  memberLevels: { name: '黄金会员', pointsThreshold: 1000, discountRate: 95 },
  staff: { name: '李四', phone: '13700137000', position: 'chef' },
  thirdServices: {
    name: '阿里云短信',
    kind: 'sms',
    endpoint: 'https://dysmsapi.aliyuncs.com',
    secret: 'abc',
  },
  posters: { title: '邀请有礼', background: '/api/files/1', targetUrl: 'https://example.com/invite' },
  goodsCategories: { storeId: 1, name: '招牌主食' },
  goods: {
    storeId: 1,
    categoryId: 1,
    name: '牛肉面',
    priceFen: 2800,
    specs: [{ name: '大份', priceFen: 3200, stock: 10 }],
  },
  referralCampaigns: {
    name: '老带新',
    inviterRewardId: 1,
    inviteeRewardId: 2,
    startAt: '2024-01-01T00:00:00Z',
    endAt: '2024-12-31T00:00:00Z',
  },
};

describe('a valid create', () => {
  it.each(Object.keys(VALID))('%s passes', (name) => {
    expect(create(name, VALID[name]).ok).toBe(true);
  });

  it('covers every resource that can be created through the generic route', () => {
    const creatable = RESOURCES.filter((r) => !r.readOnly && !r.noCreate).map((r) => r.name);
    expect(creatable.filter((n) => !(n in VALID))).toEqual([]);
  });

  it('builds a create and an update schema for every resource', () => {
    for (const def of RESOURCES) {
      expect(() => resourceSchema(def, 'create')).not.toThrow();
      expect(() => resourceSchema(def, 'update')).not.toThrow();
    }
  });

  it('applies defaults on create and keeps what was given', () => {
    expect(value(create('monitorJobs', VALID.monitorJobs))).toEqual({
      name: '官网',
      url: 'https://example.com/',
      intervalS: 60,
      kind: 'http',
      method: 'GET',
      retryIntervalS: 60,
      timeoutMs: 10_000,
      acceptedStatus: '200-299',
      invertKeyword: false,
      maxRetries: 0,
      followRedirects: true,
      ignoreTls: false,
    });
    expect(value(create('sslJobs', VALID.sslJobs))).toMatchObject({ notifyDays: [7, 14, 21], port: 443 });
    expect(value(create('printers', VALID.printers))).toMatchObject({
      kind: 'escpos-tcp',
      port: 9100,
      paperWidth: '58',
      copies: 1,
      autoPrintOnAccept: true,
    });
    // A required field with a default may be left out; it may not be cleared.
    expect(value(create('docTagRules', VALID.docTagRules))).toMatchObject({
      scope: 'all',
      status: 'enabled',
    });
    expect(errors(create('printers', { ...VALID.printers, port: null }))).toEqual({ port: '请输入端口' });
    expect(errors(update('printers', { paperWidth: '' }))).toEqual({ paperWidth: '请输入纸宽' });
    // Read-only fields get no default from the body validation (the server owns them).
    expect(value(create('articles', VALID.articles))).not.toHaveProperty('status');
  });

  it('normalises datetimes to ISO 8601 UTC and blanks of optional fields to null', () => {
    const v = value(create('discounts', { ...VALID.discounts, storeIds: '' }));
    expect(v.startAt).toBe('2024-04-30T16:00:00.000Z');
    expect(v.storeIds).toBeNull();
  });

  it('accepts write-only secrets', () => {
    expect(value(create('sslDeployments', VALID.sslDeployments)).privateKey).toContain('PRIVATE KEY');
    expect(value(create('merchantApplications', VALID.merchantApplications)).idNumber).toBe(
      '11010519491231002X',
    );
  });
});

describe('failures carry the zh-CN form messages with the field label', () => {
  it('required: missing or blank', () => {
    const { name: _drop, ...noName } = VALID.stores as Record<string, unknown>;
    expect(errors(create('stores', noName))).toEqual({
      name: m(formMessages.required, { label: '门店名称' }),
    });
    expect(errors(create('stores', { ...VALID.stores, name: '   ' }))).toEqual({ name: '请输入门店名称' });
    expect(errors(create('monitorJobs', { name: '官网' }))).toEqual({ url: '请输入监控地址' });
    expect(errors(create('chatBots', { name: 'x' }))).toEqual({ rules: '请输入关键词回复' });
  });

  it('string length: range, min and max', () => {
    expect(errors(create('users', { ...VALID.users, username: 'ab' }))).toEqual({
      username: m(formMessages.string.range, { label: '用户名', min: 3, max: 32 }),
    });
    expect(errors(create('goods', { ...VALID.goods, name: '面'.repeat(51) }))).toEqual({
      name: m(formMessages.string.max, { label: '商品名称', max: 50 }),
    });
    expect(errors(create('bbsTopics', { ...VALID.bbsTopics, title: '一' }))).toEqual({
      title: '标题须在2-100字符之间',
    });
    expect(errors(create('users', { ...VALID.users, password: 'short' }))).toEqual({
      password: '密码须在8-128字符之间',
    });
  });

  it('numbers: range, min, integer', () => {
    expect(errors(create('monitorJobs', { ...VALID.monitorJobs, intervalS: 10 }))).toEqual({
      intervalS: m(formMessages.number.range, { label: '检查间隔（秒）', min: 20, max: 86_400 }),
    });
    expect(errors(create('cardProducts', { ...VALID.cardProducts, faceValueFen: 0 }))).toEqual({
      faceValueFen: m(formMessages.number.min, { label: '面值', min: 1 }),
    });
    expect(errors(create('goods', { ...VALID.goods, priceFen: 12.5 }))).toEqual({
      priceFen: m(formMessages.invalidType, { label: '售价', type: '整数' }),
    });
    expect(errors(create('movies', { ...VALID.movies, rating: 11 }))).toEqual({ rating: '评分须在0-10之间' });
    expect(errors(create('printers', { ...VALID.printers, port: 70_000 }))).toEqual({
      port: '端口须在1-65535之间',
    });
    expect(errors(create('movies', { ...VALID.movies, year: '1993' }))).toEqual({
      year: '年份不是一个有效的整数',
    });
  });

  it('enums list their Chinese labels', () => {
    expect(errors(create('staff', { ...VALID.staff, position: 'boss' }))).toEqual({
      position: m(formMessages.enum, { label: '岗位', enum: '店长,厨师,收银,服务员,打包员' }),
    });
    expect(errors(create('couponRules', { ...VALID.couponRules, trigger: 'anniversary' }))).toEqual({
      trigger: '触发条件必须是其中一个[新用户注册,首单完成,订单满额,生日当天,邀请成功]',
    });
    expect(
      errors(create('merchantApplications', { ...VALID.merchantApplications, scenes: ['app'] })),
    ).toEqual({
      scenes: '经营场景必须是其中一个[线下门店,小程序,网站]',
    });
  });

  it('list counts', () => {
    expect(errors(create('lawyers', { ...VALID.lawyers, specialties: [] }))).toEqual({
      specialties: m(formMessages.array.min, { label: '擅长领域', min: 1 }),
    });
    expect(
      errors(
        create('movies', {
          ...VALID.movies,
          genres: ['drama', 'comedy', 'action', 'romance', 'scifi', 'war'],
        }),
      ),
    ).toEqual({ genres: m(formMessages.array.max, { label: '类型', max: 5 }) });
    expect(errors(create('bbsTopics', { ...VALID.bbsTopics, tags: [1, 2, 3, 4, 5, 6] }))).toEqual({
      tags: '最多5个标签',
    });
  });

  it('formats: email, phone, url', () => {
    expect(
      errors(create('merchantApplications', { ...VALID.merchantApplications, contactEmail: 'wang' })),
    ).toEqual({
      contactEmail: m(formMessages.invalidType, { label: '联系邮箱', type: '邮箱地址' }),
    });
    expect(errors(create('runners', { ...VALID.runners, phone: '电话' }))).toEqual({
      phone: '手机号不是一个有效的电话号码',
    });
    expect(errors(create('banners', { ...VALID.banners, link: 'javascript:alert(1)' }))).toEqual({
      link: '跳转链接不是一个有效的网址',
    });
  });

  it('patterns say what is expected in words, not the regex', () => {
    expect(errors(create('lawyers', { ...VALID.lawyers, licenseNo: '1110120101012345X' }))).toEqual({
      licenseNo: '执业证号须为 17 位数字',
    });
    const merchant = (patch: Record<string, unknown>) =>
      errors(create('merchantApplications', { ...VALID.merchantApplications, ...patch }));
    expect(merchant({ licenseNumber: '91110105MA01ABCDIO' }).licenseNumber).toBe(
      '统一社会信用代码：请输入 18 位统一社会信用代码',
    );
    expect(merchant({ idNumber: '1101051949123100' }).idNumber).toBe(
      '法定代表人身份证号：请输入 18 位身份证号',
    );
    expect(merchant({ accountNumber: '6214-8301' }).accountNumber).toBe('银行账号：请输入 8-30 位数字的账号');
    expect(merchant({ contactMobile: '010-8888666' }).contactMobile).toBe('联系人手机：请输入 11 位手机号');
    expect(merchant({ number: 'AB 12' }).number).toBe('业务申请编号须在6-32字符之间');
    expect(errors(create('cdnDomains', { ...VALID.cdnDomains, domain: 'Static.Example' })).domain).toBe(
      '加速域名：请输入有效的域名，如 cdn.example.com 或 *.example.com',
    );
    expect(value(create('cdnDomains', { ...VALID.cdnDomains, domain: '*.example.com' })).domain).toBe(
      '*.example.com',
    );
    expect(errors(create('sslJobs', { host: 'https://example.com' })).host).toBe(
      '域名：请输入主机名或 IPv4 地址',
    );
    expect(errors(create('appModules', { ...VALID.appModules, key: '9lives' })).key).toBe(
      '模块标识须以字母开头，只含字母、数字、_ 和 -',
    );
    expect(errors(create('monitorJobs', { ...VALID.monitorJobs, acceptedStatus: '2xx' }))).toEqual({
      acceptedStatus: '正常状态码须为状态码或范围，如 200-299 或 200,301-302',
    });
    expect(
      value(create('monitorJobs', { ...VALID.monitorJobs, acceptedStatus: '200-299,301' })).acceptedStatus,
    ).toBe('200-299,301');
    expect(errors(create('monitorJobs', { ...VALID.monitorJobs, url: '/relative' })).url).toBe(
      '监控地址须以 http://、https:// 或 tcp:// 开头',
    );
  });

  it('a pattern without a message falls back to the generic form message', () => {
    const def = defineResource({
      name: 'things',
      title: '东西',
      route: null,
      area: 'system',
      displayField: 'code',
      fields: { code: f.string('编码', { pattern: '^[a-z]+$' }) },
    });
    expect(validateBody(def, { code: 'A1' }, 'create')).toEqual({
      ok: false,
      fields: { code: m(formMessages.pattern.mismatch, { label: '编码', pattern: '^[a-z]+$' }) },
    });
  });

  it('json fields are checked by their schema', () => {
    expect(
      errors(create('discounts', { ...VALID.discounts, tiers: [{ thresholdFen: 1000, reduceFen: 1000 }] })),
    ).toEqual({ tiers: '减免金额须小于门槛金额' });
    expect(
      errors(
        create('discounts', {
          ...VALID.discounts,
          tiers: [
            { thresholdFen: 5000, reduceFen: 500 },
            { thresholdFen: 3000, reduceFen: 300 },
          ],
        }),
      ),
    ).toEqual({ tiers: '各档门槛须从低到高排列且不重复' });
    expect(errors(create('discounts', { ...VALID.discounts, tiers: [] }))).toEqual({ tiers: '至少一档满减' });
    expect(errors(create('chatBots', { name: '小助手', rules: [{ keyword: ' ', reply: '你好' }] }))).toEqual({
      rules: '关键词不能为空',
    });
    expect(
      errors(create('cdnDomains', { ...VALID.cdnDomains, cacheRules: [{ path: 'static', ttlS: 60 }] })),
    ).toEqual({
      cacheRules: '缓存路径须以 / 或 *. 开头，如 /static/ 或 *.jpg',
    });
    expect(errors(create('monitorJobs', { ...VALID.monitorJobs, headers: { 'Bad Header': 'x' } }))).toEqual({
      headers: '请求头名称无效',
    });
    expect(errors(create('monitorJobs', { ...VALID.monitorJobs, headers: ['Accept'] }))).toEqual({
      headers: '请求头须为 JSON 对象，如 {"Authorization": "Bearer …"}',
    });
    expect(errors(create('monitorJobs', { ...VALID.monitorJobs, headers: { Accept: 1 } }))).toEqual({
      headers: '请求头的值须为文本',
    });
    expect(
      value(create('monitorJobs', { ...VALID.monitorJobs, headers: { 'X-Token': 'abc' } })).headers,
    ).toEqual({
      'X-Token': 'abc',
    });
    expect(errors(create('sslJobs', { ...VALID.sslJobs, notifyDays: [7, 0] }))).toEqual({
      notifyDays: '提醒天数至少为 1',
    });
    expect(errors(create('goods', { ...VALID.goods, specs: [{ name: '', priceFen: 1, stock: 1 }] }))).toEqual(
      {
        specs: '规格名称不能为空',
      },
    );
    expect(errors(create('appModules', { ...VALID.appModules, config: [1, 2] }))).toEqual({
      config: '模块配置须为 JSON 对象',
    });
  });

  it('unknown and read-only fields are refused', () => {
    expect(errors(create('stores', { ...VALID.stores, bogus: 1 }))).toEqual({ bogus: '不支持的字段 bogus' });
    expect(errors(create('stores', { ...VALID.stores, status: 'open' }))).toEqual({
      status: '不支持的字段 status',
    });
    expect(errors(create('bbsTopics', { ...VALID.bbsTopics, views: 100, replies: 3 }))).toEqual({
      views: '不支持的字段 views',
      replies: '不支持的字段 replies',
    });
    expect(errors(create('sslJobs', { ...VALID.sslJobs, daysLeft: 30, fingerprint256: 'AB' }))).toEqual({
      daysLeft: '不支持的字段 daysLeft',
      fingerprint256: '不支持的字段 fingerprint256',
    });
    expect(errors(update('merchantApplications', { idNumberMasked: '1101**********002X' }))).toEqual({
      idNumberMasked: '不支持的字段 idNumberMasked',
    });
    expect(errors(update('apiKeys', { secretHash: 'x' }))).toEqual({ secretHash: '不支持的字段 secretHash' });
    expect(errors(update('merchantApplications', { status: 'finished' }))).toEqual({
      status: '不支持的字段 status',
    });
  });
});

describe('update', () => {
  it('is partial and applies no defaults', () => {
    expect(value(update('monitorJobs', { name: '官网首页' }))).toEqual({ name: '官网首页' });
    expect(value(update('merchantApplications', { shortName: '万象' }))).toEqual({ shortName: '万象' });
  });

  it('cannot clear a required field', () => {
    expect(errors(update('stores', { name: '' }))).toEqual({ name: '请输入门店名称' });
    expect(errors(update('monitorJobs', { intervalS: null }))).toEqual({ intervalS: '请输入检查间隔（秒）' });
  });

  it('clears an optional field with a blank or null', () => {
    expect(value(update('stores', { logo: '' }))).toEqual({ logo: null });
    expect(value(update('monitorJobs', { keyword: null }))).toEqual({ keyword: null });
  });

  it('refuses createOnly fields: they change through actions or never', () => {
    expect(errors(update('users', { password: 'another-secret' }))).toEqual({
      password: '不支持的字段 password',
    });
    expect(errors(update('appModules', { key: 'other' }))).toEqual({ key: '不支持的字段 key' });
    expect(errors(update('cdnDomains', { domain: 'x.example.com' }))).toEqual({
      domain: '不支持的字段 domain',
    });
    expect(errors(update('merchantApplications', { number: 'APPLY2' }))).toEqual({
      number: '不支持的字段 number',
    });
    expect(errors(update('supplyProducts', { stock: 1 }))).toEqual({ stock: '不支持的字段 stock' });
    expect(errors(update('invites', { code: 'NEWCODE1' }))).toEqual({ code: '不支持的字段 code' });
  });

  it('validates what it is given by the same rules', () => {
    expect(errors(update('lawyers', { years: -1 }))).toEqual({ years: '执业年限须在0-70之间' });
  });
});

describe('action inputs', () => {
  const inputOf = (resource: string, action: string) => {
    const found = getResource(resource).actions?.find((a) => a.name === action);
    if (!found?.input) throw new Error(`${resource}.${action} has no input`);
    return found.input;
  };

  it('purchase-in takes a positive quantity', () => {
    const input = inputOf('supplyProducts', 'purchaseIn');
    expect(validateInput(input, {})).toEqual({ ok: false, fields: { qty: '请输入入库数量' } });
    expect(validateInput(input, { qty: 0 })).toEqual({
      ok: false,
      fields: { qty: '入库数量须在0.01-1000000之间' },
    });
    expect(validateInput(input, { qty: 12.5 })).toEqual({ ok: true, value: { qty: 12.5 } });
  });

  it('rejecting a topic or post needs a reason', () => {
    for (const resource of ['bbsTopics', 'bbsPosts']) {
      const input = inputOf(resource, 'reject');
      expect(validateInput(input, { reason: ' ' })).toEqual({
        ok: false,
        fields: { reason: '请输入驳回原因' },
      });
      expect(validateInput(input, { reason: '含广告' }).ok).toBe(true);
    }
  });

  it('rejecting a merchant application takes a list of {field, reason} (its rule: core merchant/review.ts)', () => {
    const input = inputOf('merchantApplications', 'reject');
    // The shape only; at least one field and a reason for each are validateRejection's
    // (core/test/merchant/review.test.ts), which the server's reject applies.
    expect(validateInput(input, { auditDetail: 'x' })).toEqual({
      ok: false,
      fields: { auditDetail: '驳回原因须为 [{field, reason}] 列表' },
    });
    expect(validateInput(input, {}).ok).toBe(false);
    expect(validateInput(input, { auditDetail: [{ field: 'licenseImage', reason: '照片模糊' }] }).ok).toBe(
      true,
    );
  });
});
