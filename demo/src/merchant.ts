/**
 * Merchant onboarding (core definitions/merchant.ts): applications in every state of WeChat Pay's
 * review machine — editing, auditing, rejected (with per-field reasons), to_be_confirmed,
 * to_be_signed, signing, finished, canceled. Numbers are fake but well-formed (ID numbers and
 * credit codes with valid check digits); the engine keeps only masked copies readable.
 */
import { chinaCompactStamp } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, MINUTE } from './context.js';
import { licenceImage } from './images.js';
import { creditCode, idNumber, landline, mobile, personNames } from './zh.js';

const STATES = [
  'editing',
  'auditing',
  'rejected',
  'to_be_confirmed',
  'to_be_signed',
  'signing',
  'finished',
  'canceled',
] as const;

const MERCHANTS = [
  ['杭州知味餐饮管理有限公司', '知味面馆', 'enterprise', '杭州'],
  ['上海弄堂餐饮有限公司', '弄堂小馆', 'enterprise', '上海'],
  ['北京青柠茶饮有限公司', '青柠茶事', 'enterprise', '北京'],
  ['北京京味小厨餐饮有限公司', '京味小厨', 'enterprise', '北京'],
  ['杭州市西湖区老王面馆', '老王面馆', 'individual', '杭州'],
  ['上海市徐汇区阿香小吃店', '阿香小吃', 'individual', '上海'],
  ['北京市海淀区小李烧烤店', '小李烧烤', 'individual', '北京'],
  ['杭州市上城区甜蜜蜜甜品店', '甜蜜蜜', 'individual', '杭州'],
  ['上海青禾轻食餐饮有限公司', '青禾轻食', 'enterprise', '上海'],
  ['浙江大学后勤服务集团', '浙大食堂', 'institution', '杭州'],
  ['杭州湖畔咖啡有限公司', '湖畔咖啡', 'enterprise', '杭州'],
  ['北京胡同里餐饮有限公司', '胡同里', 'enterprise', '北京'],
  ['上海市静安区晨光早餐店', '晨光早餐', 'individual', '上海'],
  ['杭州市滨江区码农便当店', '码农便当', 'individual', '杭州'],
  ['上海市第一人民医院职工食堂', '一院食堂', 'institution', '上海'],
  ['北京京韵茶馆有限公司', '京韵茶馆', 'enterprise', '北京'],
] as const;

const BANKS = [
  '中国工商银行',
  '中国建设银行',
  '中国农业银行',
  '中国银行',
  '招商银行',
  '交通银行',
  '浙商银行',
  '上海浦东发展银行',
];

const REJECTIONS = [
  [{ field: 'licenseImage', reason: '营业执照照片模糊，请上传清晰完整的原件照片' }],
  [
    { field: 'accountName', reason: '对公账户开户名称须与营业执照主体名称一致' },
    { field: 'bankBranch', reason: '开户支行填写不完整，请填写到具体支行' },
  ],
  [{ field: 'servicePhone', reason: '客服电话无法接通，请填写可接通的号码' }],
];

export function seedMerchantApplications(ctx: DemoContext): void {
  const rng = ctx.random('merchant');
  const people = personNames(rng, MERCHANTS.length);
  const licence = licenceImage().then((img) => ctx.file(img, 'jpg'));
  const rows: { at: number; row: Record<string, unknown> }[] = [];
  MERCHANTS.forEach(([merchantName, shortName, subjectType, city], i) => {
    // Two applications in each state.
    const status = STATES[i % STATES.length] as (typeof STATES)[number];
    const person = people[i] as (typeof people)[number];
    const created = ctx.now - rng.int(3, 90) * DAY - rng.int(0, 600) * MINUTE;
    const submittedAt = status === 'editing' ? null : created + rng.int(10, 600) * MINUTE;
    const finishedAt = status === 'finished' ? (submittedAt as number) + rng.int(3, 10) * DAY : null;
    const updatedAt = Math.min(
      ctx.now - MINUTE,
      finishedAt ?? (submittedAt !== null ? submittedAt + rng.int(1, 72) * HOUR : created + HOUR),
    );
    const corporate = subjectType !== 'individual' || rng.chance(0.3);
    const bank = rng.pick(BANKS);
    rows.push({
      at: created,
      row: {
        number: `WX${chinaCompactStamp(created).slice(0, 8)}${String(1001 + i)}`,
        contactName: person.name,
        contactMobile: mobile(rng),
        contactEmail: `${person.pinyin}@example.com`,
        subjectType,
        merchantName,
        licenseNumber: creditCode(rng),
        licenseImage: '',
        legalPerson: person.name,
        idNumber: idNumber(rng, rng.int(1965, 1998)),
        shortName,
        servicePhone: landline(rng, city),
        scenes:
          subjectType === 'institution'
            ? ['store']
            : rng.sample(['store', 'miniProgram', 'web'], rng.int(1, 3)),
        bankAccountType: corporate ? 'corporate' : 'personal',
        accountName: corporate ? merchantName : person.name,
        bankName: bank,
        bankBranch: `${bank}${city}${rng.pick(['西湖', '静安', '海淀', '朝阳', '滨江', '徐汇'])}支行`,
        accountNumber: corporate ? rng.digits(1).replace('0', '1') + rng.digits(16) : `62${rng.digits(17)}`,
        status,
        auditDetail: status === 'rejected' ? rng.pick(REJECTIONS) : null,
        submittedAt,
        finishedAt,
        updatedAt,
      },
    });
  });
  rows.sort((a, b) => a.at - b.at);
  for (const { at, row } of rows) {
    const added = ctx.add('merchantApplications', { ...row, createdAt: at });
    ctx.later(async () => {
      added.licenseImage = await licence;
    });
  }
}
