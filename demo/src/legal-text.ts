/**
 * Chinese legal text for the demo documents, composed from article templates: chapters of
 * "第一条 …" articles about one subject (labour contracts, leases, food delivery …) in the
 * register of Chinese statutes, with the words people search for — 法, 合同, 劳动, 劳动合同,
 * 违约, 赔偿, 当事人. Every text says in its final article that it is generated demo text.
 */
import type { Rng } from './random.js';

export interface Subject {
  /** Used in titles: 劳动合同 → 劳动合同管理条例. */
  name: string;
  /** The two parties, e.g. 用人单位 and 劳动者. */
  a: string;
  b: string;
  /** What the rules govern, e.g. 订立、履行、变更、解除和终止劳动合同. */
  scope: string;
  tags: readonly string[];
}

export const SUBJECTS: readonly Subject[] = [
  {
    name: '劳动合同',
    a: '用人单位',
    b: '劳动者',
    scope: '订立、履行、变更、解除和终止劳动合同',
    tags: ['劳动', '合同'],
  },
  {
    name: '网络餐饮配送劳动者权益保障',
    a: '平台企业',
    b: '配送员',
    scope: '网络餐饮配送服务中的劳动用工和权益保障',
    tags: ['劳动', '外卖'],
  },
  {
    name: '房屋租赁',
    a: '出租人',
    b: '承租人',
    scope: '城市房屋租赁合同的订立、履行和备案',
    tags: ['租赁', '合同'],
  },
  {
    name: '电子商务合同',
    a: '平台经营者',
    b: '消费者',
    scope: '通过互联网订立和履行的商品、服务合同',
    tags: ['电子商务', '合同'],
  },
  {
    name: '消费者权益保护',
    a: '经营者',
    b: '消费者',
    scope: '消费者为生活消费需要购买、使用商品或者接受服务',
    tags: ['消费', '赔偿'],
  },
  {
    name: '餐饮服务食品安全',
    a: '餐饮服务提供者',
    b: '消费者',
    scope: '餐饮服务经营活动及其食品安全监督管理',
    tags: ['食品安全', '赔偿'],
  },
  {
    name: '个人信息保护',
    a: '个人信息处理者',
    b: '个人',
    scope: '处理自然人个人信息的活动',
    tags: ['个人信息'],
  },
  {
    name: '家庭装修合同',
    a: '装修企业',
    b: '业主',
    scope: '住宅室内装饰装修工程合同的订立与履行',
    tags: ['合同', '违约'],
  },
];

const CN_DIGITS = '零一二三四五六七八九';

/** 1 → 一, 12 → 十二, 20 → 二十, 105 → 一百零五. */
export function chineseNumber(n: number): string {
  if (n < 10) return CN_DIGITS[n] as string;
  if (n < 20) return `十${n % 10 === 0 ? '' : CN_DIGITS[n % 10]}`;
  if (n < 100) return `${CN_DIGITS[Math.floor(n / 10)]}十${n % 10 === 0 ? '' : CN_DIGITS[n % 10]}`;
  const rest = n % 100;
  const head = `${CN_DIGITS[Math.floor(n / 100)]}百`;
  if (rest === 0) return head;
  return rest < 10 ? `${head}零${CN_DIGITS[rest]}` : `${head}${rest < 20 ? '一' : ''}${chineseNumber(rest)}`;
}

type Template = (s: Subject, kind: string) => string;

const GENERAL: readonly Template[] = [
  (s, k) =>
    `为了规范${s.scope}，保护${s.a}和${s.b}的合法权益，构建和谐稳定的${s.name.includes('劳动') ? '劳动关系' : '市场秩序'}，根据《民法典》《劳动法》等有关法律，制定本${k}。`,
  (s, k) => `本${k}适用于${s.scope}。法律、行政法规另有规定的，依照其规定。`,
  (s) =>
    `${s.a}与${s.b}订立合同，应当遵循合法、公平、平等自愿、协商一致、诚实信用的原则。依法订立的合同，对当事人具有法律约束力，当事人应当履行合同约定的义务。`,
  (s) => `县级以上人民政府有关部门应当加强对${s.scope}的指导和监督，依法查处违法行为，及时调处争议。`,
  (s) =>
    `${s.a}应当依法建立和完善规章制度，保障${s.b}享有权利、履行义务。涉及${s.b}切身利益的规章制度，应当经过平等协商确定，并予以公示或者告知。`,
];

const FORMATION: readonly Template[] = [
  (s) =>
    `${s.a}与${s.b}建立关系，应当订立书面合同。已建立劳动关系，未同时订立书面劳动合同的，应当自用工之日起一个月内订立书面劳动合同。`,
  () =>
    `合同应当具备以下条款：（一）当事人的名称或者姓名和住所；（二）合同期限；（三）工作内容、服务内容或者标的；（四）报酬、价款及其支付方式；（五）违约责任；（六）解决争议的方法。`,
  (s) =>
    `${s.a}在订立合同时，应当如实告知${s.b}与合同直接相关的情况；${s.b}有权了解合同的主要内容，${s.a}不得以格式条款免除自身责任、加重对方责任或者排除对方主要权利。`,
  () =>
    `劳动合同期限三个月以上不满一年的，试用期不得超过一个月；劳动合同期限一年以上不满三年的，试用期不得超过二个月；三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月。`,
  (s) =>
    `合同文本由${s.a}和${s.b}各执一份。采用电子方式订立合同的，应当采取可靠的技术措施保证合同内容完整、不被篡改，并便于当事人查阅、下载和保存。`,
  (s) => `${s.a}不得要求${s.b}提供担保或者以其他名义收取财物，不得扣押${s.b}的居民身份证或者其他证件。`,
];

const PERFORMANCE: readonly Template[] = [
  () => `当事人应当按照约定全面履行自己的义务，并根据合同的性质、目的和交易习惯履行通知、协助、保密等义务。`,
  (s) => `${s.a}应当按照合同约定和国家规定，及时足额支付报酬或者价款，不得克扣或者无故拖欠。`,
  () =>
    `用人单位应当严格执行劳动定额标准，不得强迫或者变相强迫劳动者加班。安排加班的，应当按照国家有关规定向劳动者支付加班费。`,
  (s) =>
    `${s.a}变更名称、法定代表人、主要负责人或者投资人等事项，不影响合同的履行。${s.a}发生合并或者分立等情况，原合同继续有效，由承继其权利和义务的主体继续履行。`,
  () =>
    `当事人协商一致，可以变更合同约定的内容。变更合同，应当采用书面形式，变更后的合同文本由当事人各执一份。`,
  (s) =>
    `${s.b}有权拒绝${s.a}违章指挥、强令冒险作业，不视为违反合同；对危害生命安全和身体健康的行为，有权提出批评、检举和控告。`,
  (s) =>
    `${s.a}处理${s.b}个人信息的，应当遵循合法、正当、必要和诚信原则，不得过度收集，不得泄露、篡改或者非法向他人提供。`,
];

const TERMINATION: readonly Template[] = [
  (s) => `${s.a}与${s.b}协商一致，可以解除合同。一方提出解除的，应当提前三十日以书面形式通知对方。`,
  () => `劳动者在试用期间被证明不符合录用条件的，用人单位可以解除劳动合同，但应当向劳动者说明理由。`,
  () =>
    `有下列情形之一的，用人单位应当向劳动者支付经济补偿：（一）劳动者依照本规定解除劳动合同的；（二）用人单位提出解除劳动合同并与劳动者协商一致的；（三）劳动合同期满终止固定期限劳动合同的。`,
  () =>
    `经济补偿按劳动者在本单位工作的年限，每满一年支付一个月工资的标准向劳动者支付。六个月以上不满一年的，按一年计算；不满六个月的，支付半个月工资的经济补偿。`,
  (s) =>
    `合同解除或者终止后，当事人应当遵循诚信原则，根据交易习惯履行通知、协助、保密、旧物回收等义务。${s.a}应当在解除或者终止合同时出具相应证明。`,
  () =>
    `因不可抗力不能履行合同的，根据不可抗力的影响，部分或者全部免除责任。当事人迟延履行后发生不可抗力的，不免除其违约责任。`,
];

const LIABILITY: readonly Template[] = [
  () =>
    `当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。`,
  () =>
    `当事人可以约定一方违约时应当根据违约情况向对方支付一定数额的违约金。约定的违约金过分高于造成的损失的，人民法院或者仲裁机构可以根据当事人的请求予以适当减少。`,
  () =>
    `用人单位违反本规定不与劳动者订立无固定期限劳动合同的，自应当订立无固定期限劳动合同之日起向劳动者每月支付二倍的工资。`,
  (s) =>
    `${s.a}违反本规定，侵害${s.b}合法权益，造成损害的，应当依法承担赔偿责任；构成犯罪的，依法追究刑事责任。`,
  (s) =>
    `${s.a}提供的商品或者服务有欺诈行为的，应当按照${s.b}的要求增加赔偿其受到的损失，增加赔偿的金额为购买商品的价款或者接受服务的费用的三倍；增加赔偿的金额不足五百元的，为五百元。`,
  () =>
    `当事人因履行合同发生争议的，可以协商解决，也可以请求调解；不愿协商、调解或者协商、调解不成的，可以依法申请仲裁或者向人民法院提起诉讼。发生劳动争议的，依照劳动争议调解仲裁的有关规定处理。`,
  () => `有关部门及其工作人员在监督管理工作中滥用职权、玩忽职守、徇私舞弊的，依法给予处分。`,
];

const CHAPTERS: readonly (readonly [string, readonly Template[]])[] = [
  ['总则', GENERAL],
  ['合同的订立', FORMATION],
  ['合同的履行和变更', PERFORMANCE],
  ['合同的解除和终止', TERMINATION],
  ['法律责任', LIABILITY],
];

export interface LegalText {
  /** The text split into pages of a few articles each. */
  pages: string[];
  articleCount: number;
}

/**
 * A statute-like text: chapters of articles numbered 第一条 …, split into pages of about
 * `perPage` articles (a chapter heading starts with its first article).
 */
export function legalText(
  rng: Rng,
  subject: Subject,
  kind: string,
  effectiveDate: string,
  perPage = 7,
): LegalText {
  const articles: string[] = [];
  let n = 0;
  const chapters = CHAPTERS.map(([title, pool], c) => {
    const count = c === 0 ? rng.int(3, 5) : rng.int(3, Math.min(6, pool.length));
    const picked = c === 0 ? pool.slice(0, count) : rng.sample(pool, count);
    return { heading: `第${chineseNumber(c + 1)}章　${title}`, texts: picked.map((t) => t(subject, kind)) };
  });
  chapters.push({
    heading: `第${chineseNumber(chapters.length + 1)}章　附则`,
    texts: [
      `本${kind}所称${subject.a}，包括依法设立的企业、个体经济组织、民办非企业单位等组织。`,
      `本${kind}为演示文本，由程序根据模板生成，不具有法律效力；引用法律条文请以国家法律法规数据库公布的文本为准。`,
      `本${kind}自${effectiveDate.replace(/^(\d{4})-(\d{2})-(\d{2})$/, (_m, y, mo, d) => `${y}年${Number(mo)}月${Number(d)}日`)}起施行。`,
    ],
  });
  const pages: string[] = [];
  let page: string[] = [];
  let onPage = 0;
  for (const chapter of chapters) {
    page.push(chapter.heading);
    for (const text of chapter.texts) {
      n++;
      const article = `第${chineseNumber(n)}条　${text}`;
      articles.push(article);
      page.push(article);
      onPage++;
      if (onPage >= perPage) {
        pages.push(page.join('\n\n'));
        page = [];
        onPage = 0;
      }
    }
  }
  if (page.length > 0) pages.push(page.join('\n\n'));
  return { pages, articleCount: articles.length };
}
