/**
 * The document and lawyer library (core definitions/documents.ts): a category tree (法律,
 * 行政法规, 部门规章, 司法解释, 地方性法规 …), documents with 文号, issuer, dates and validity whose
 * bodies are split into pages of statute-like text (legal-text.ts), tags applied by the tagging
 * rules (so tags and rules agree), search logs whose hit counts are real, lawyers in review
 * states, work tools and invitation codes.
 */
import { randomBytes } from 'node:crypto';
import { DAY, type DemoContext, dateOf, HOUR, MINUTE } from './context.js';
import { avatarImage, PALETTES } from './images.js';
import { chineseNumber, legalText, SUBJECTS, type Subject } from './legal-text.js';
import type { Customer } from './people.js';
import { mobiles, personNames } from './zh.js';

const TREE: readonly (readonly [string, readonly string[]])[] = [
  ['法律', ['民商法', '社会法', '行政法']],
  ['行政法规', []],
  ['部门规章', []],
  ['司法解释', []],
  ['地方性法规', ['北京市', '上海市', '浙江省']],
  ['合同范本', ['劳动合同范本', '租赁合同范本']],
];

type Level = '法律' | '行政法规' | '部门规章' | '司法解释' | '地方性法规';

const MINISTRIES: Record<string, string> = {
  劳动合同: '人力资源和社会保障部',
  网络餐饮配送劳动者权益保障: '人力资源和社会保障部',
  房屋租赁: '住房和城乡建设部',
  电子商务合同: '商务部',
  消费者权益保护: '国家市场监督管理总局',
  餐饮服务食品安全: '国家市场监督管理总局',
  个人信息保护: '国家互联网信息办公室',
  家庭装修合同: '住房和城乡建设部',
};

const PROVINCES = [
  ['北京市', '北京市人民代表大会常务委员会'],
  ['上海市', '上海市人民代表大会常务委员会'],
  ['浙江省', '浙江省人民代表大会常务委员会'],
] as const;

function titleOf(level: Level, s: Subject, province: string): { title: string; kind: string } {
  switch (level) {
    case '法律':
      return { title: `${s.name}${/保障|保护$/.test(s.name) ? '' : '管理'}法（示范稿）`, kind: '法' };
    case '行政法规':
      return { title: `${s.name}管理条例`, kind: '条例' };
    case '部门规章':
      return { title: `${s.name}管理办法`, kind: '办法' };
    case '司法解释':
      return { title: `最高人民法院关于审理${s.name}纠纷案件适用法律若干问题的解释`, kind: '解释' };
    default:
      return { title: `${province}${s.name}条例`, kind: '条例' };
  }
}

const TAG_COLORS = [
  'blue',
  'geekblue',
  'green',
  'orange',
  'volcano',
  'cyan',
  'purple',
  'magenta',
  'gold',
  'lime',
  'red',
  'blue',
] as const;
const TAG_RULES: readonly (readonly [string, string, 'title' | 'all'])[] = [
  ['劳动合同', '劳动', 'all'],
  ['劳动者', '劳动', 'all'],
  ['合同', '合同', 'title'],
  ['违约金', '违约', 'all'],
  ['违约责任', '违约', 'all'],
  ['赔偿', '赔偿', 'all'],
  ['租赁', '租赁', 'all'],
  ['消费者', '消费', 'all'],
  ['食品安全', '食品安全', 'all'],
  ['个人信息', '个人信息', 'all'],
  ['电子商务', '电子商务', 'all'],
  ['配送', '外卖', 'all'],
  ['仲裁', '仲裁', 'all'],
  ['诉讼', '诉讼', 'all'],
];

/** Queries people type into the document search. */
const QUERIES = [
  '劳动合同',
  '试用期',
  '违约金',
  '加班费',
  '法',
  '合同',
  '劳动',
  '赔偿',
  '经济补偿',
  '押金',
  '外卖骑手',
  '个人信息',
  '食品安全',
  '二倍工资',
  '解除劳动合同',
  '租赁合同',
  '消费者',
  '仲裁',
  '竞业限制',
  '工伤',
];

export function seedDocuments(ctx: DemoContext, customers: readonly Customer[]): void {
  const rng = ctx.random('documents');
  const started = ctx.now - 365 * DAY;
  const category = new Map<string, number>();
  TREE.forEach(([name, children], i) => {
    const parent = ctx.add('docCategories', {
      name,
      parentId: null,
      sort: (i + 1) * 10,
      createdAt: started,
      updatedAt: started,
    });
    category.set(name, parent.id);
    children.forEach((child, k) => {
      const row = ctx.add('docCategories', {
        name: child,
        parentId: parent.id,
        sort: (k + 1) * 10,
        createdAt: started,
        updatedAt: started,
      });
      category.set(child, row.id);
    });
  });

  const tagIds = new Map<string, number>();
  const tagNames = [...new Set(TAG_RULES.map(([, tag]) => tag))];
  tagNames.forEach((name, i) => {
    tagIds.set(
      name,
      ctx.add('docTags', {
        name,
        color: TAG_COLORS[i % TAG_COLORS.length],
        createdAt: started,
        updatedAt: started,
      }).id,
    );
  });
  TAG_RULES.forEach(([keyword, tag, scope], i) => {
    ctx.add('docTagRules', {
      keyword,
      tagId: tagIds.get(tag),
      scope,
      status: i === TAG_RULES.length - 1 ? 'disabled' : 'enabled',
      createdAt: started + i * MINUTE,
      updatedAt: started + i * MINUTE,
    });
  });
  const activeRules = TAG_RULES.slice(0, -1);

  // Documents: each subject at a few levels.
  const levels: readonly Level[] = ['法律', '行政法规', '部门规章', '司法解释', '地方性法规'];
  const pageTexts: string[] = [];
  let docNo = 1;
  SUBJECTS.forEach((subject, s) => {
    const chosen = rng.sample(levels, s < 2 ? 5 : rng.int(3, 4));
    for (const level of chosen) {
      const [province, congress] = rng.pick(PROVINCES);
      const { title, kind } = titleOf(level, subject, province);
      const publishMs = ctx.now - rng.int(30, 3000) * DAY;
      const publishDate = dateOf(publishMs);
      const effectiveDate = dateOf(publishMs + rng.pick([0, 30, 60, 90, 180]) * DAY);
      const year = publishDate.slice(0, 4);
      const no = rng.int(1, 80);
      const meta: Record<Level, { issuer: string; docNo: string; category: string }> = {
        法律: {
          issuer: '全国人民代表大会常务委员会',
          docNo: `主席令第${chineseNumber(no)}号`,
          category: subject.name.includes('劳动') ? '社会法' : '民商法',
        },
        行政法规: { issuer: '国务院', docNo: `国务院令第${600 + no}号`, category: '行政法规' },
        部门规章: {
          issuer: MINISTRIES[subject.name] ?? '国务院办公厅',
          docNo: `${MINISTRIES[subject.name] ?? '国务院办公厅'}令〔${year}〕第${no}号`,
          category: '部门规章',
        },
        司法解释: { issuer: '最高人民法院', docNo: `法释〔${year}〕${no}号`, category: '司法解释' },
        地方性法规: { issuer: congress, docNo: `${congress}公告第${no}号`, category: province },
      };
      const m = meta[level];
      const text = legalText(rng.fork(title), subject, kind, effectiveDate);
      const status = docNo % 9 === 4 ? 'reviewing' : docNo % 13 === 6 ? 'draft' : 'published';
      const validity =
        publishMs < ctx.now - 2500 * DAY
          ? 'repealed'
          : publishMs < ctx.now - 1500 * DAY
            ? 'amended'
            : 'effective';
      const summary = `为规范${subject.scope}，明确${subject.a}与${subject.b}的权利义务，本${kind}对合同的订立、履行、解除以及违约责任和赔偿作出规定。（本文为演示数据，由程序生成，不具有法律效力。）`;
      const all = `${title}\n${summary}\n${text.pages.join('\n')}`;
      const tags = activeRules
        .filter(([keyword, , scope]) => (scope === 'title' ? title : all).includes(keyword))
        .map(([, tag]) => tagIds.get(tag) as number);
      const created = publishMs + rng.int(1, 20) * DAY;
      const publishedAt =
        status === 'published' ? Math.min(ctx.now - HOUR, created + rng.int(1, 10) * DAY) : null;
      const doc = ctx.add('docs', {
        title,
        docNo: m.docNo,
        categoryId: category.get(m.category),
        issuer: m.issuer,
        publishDate,
        effectiveDate,
        validity,
        tags: [...new Set(tags)],
        summary,
        pageCount: text.pages.length,
        views: status === 'published' ? rng.int(20, 9000) : 0,
        status,
        publishedAt,
        createdAt: Math.min(created, ctx.now - DAY),
        updatedAt: Math.min(ctx.now - MINUTE, publishedAt ?? created + DAY),
      });
      text.pages.forEach((content, i) => {
        ctx.add('docPages', {
          docId: doc.id,
          pageNo: i + 1,
          content,
          createdAt: doc.createdAt,
          updatedAt: doc.createdAt,
        });
        if (status === 'published') pageTexts.push(`${title}\n${content}`);
      });
      docNo++;
    }
  });

  // Search logs over the last month; the hits are what a search over published pages finds.
  const hits = new Map(QUERIES.map((q) => [q, pageTexts.filter((p) => p.includes(q)).length]));
  const logs: { at: number; row: Record<string, unknown> }[] = [];
  for (let i = 0; i < 400; i++) {
    const q = rng.weighted(
      QUERIES.map((query, k) => [query, QUERIES.length - k + (k < 4 ? 10 : 0)] as const),
    );
    const at = ctx.now - rng.int(0, 30 * 24 * 60) * MINUTE - rng.int(0, 59) * 1000;
    const found = hits.get(q) ?? 0;
    logs.push({
      at,
      row: {
        q,
        userId: rng.chance(0.7) ? rng.pick(customers).row.id : null,
        hits: found,
        tookMs: Math.round(rng.around(found > 0 ? 12 : 5, 6, 1, 80)),
      },
    });
  }
  logs.sort((a, b) => a.at - b.at);
  for (const { at, row } of logs) ctx.add('docSearchLogs', { ...row, createdAt: at, updatedAt: at });

  seedLawyers(ctx);
  seedWorkTools(ctx);
  seedInvites(ctx);
}

const FIRMS: Record<string, readonly string[]> = {
  北京: ['北京正衡律师事务所', '北京明理律师事务所', '北京德恒信律师事务所'],
  上海: ['上海申浦律师事务所', '上海沪江律师事务所', '上海明伦律师事务所'],
  杭州: ['浙江钱塘律师事务所', '浙江之江律师事务所', '杭州西溪律师事务所'],
};
const PROVINCE_CODE: Record<string, string> = { 北京: '11', 上海: '31', 杭州: '33' };

function seedLawyers(ctx: DemoContext): void {
  const rng = ctx.random('lawyers');
  const names = personNames(rng, 30);
  const phones = mobiles(rng, 30);
  const specialties = [
    'criminal',
    'marriage',
    'labor',
    'contract',
    'corporate',
    'ip',
    'realEstate',
    'traffic',
    'debt',
    'administrative',
    'finance',
    'tax',
  ];
  const licences = new Set<string>();
  names.forEach((person, i) => {
    const city = rng.pick(Object.keys(FIRMS));
    const years = rng.int(1, 28);
    const startYear = new Date(ctx.now).getUTCFullYear() - years;
    let licenseNo = '';
    while (!licenseNo || licences.has(licenseNo))
      licenseNo = `1${PROVINCE_CODE[city]}${startYear}1${rng.int(0, 1)}${rng.digits(8)}`;
    licences.add(licenseNo);
    const status = i % 6 === 1 ? 'pending' : i % 10 === 7 ? 'rejected' : 'verified';
    const at = ctx.now - rng.int(5, 300) * DAY;
    const verifiedAt = status === 'verified' ? Math.min(ctx.now - HOUR, at + rng.int(1, 5) * DAY) : null;
    // Labour and contract lawyers are the most asked for, so there are more of them.
    const picked = [
      rng.pick(['labor', 'contract', 'labor', 'marriage']),
      ...rng.sample(specialties, rng.int(0, 2)),
    ];
    const row = ctx.add('lawyers', {
      name: person.name,
      firm: rng.pick(FIRMS[city] as readonly string[]),
      licenseNo,
      city,
      specialties: [...new Set(picked)],
      years,
      phone: phones[i],
      avatar: null as string | null,
      status,
      verifiedAt,
      createdAt: at,
      updatedAt: verifiedAt ?? at + (status === 'rejected' ? 2 * DAY : 0),
    });
    const color = (PALETTES[i % PALETTES.length] as readonly [string, string])[0];
    ctx.later(async () => {
      row.avatar = await ctx.file(await avatarImage(color, person.surname), 'png');
    });
  });
}

const CONTRACT_TEMPLATE = `# 劳动合同（示范文本）

甲方（用人单位）：______________　　乙方（劳动者）：______________

根据《劳动法》《劳动合同法》等法律法规，甲乙双方经平等自愿、协商一致，签订本劳动合同。

## 一、合同期限

本合同为固定期限劳动合同，自____年__月__日起至____年__月__日止，其中试用期自____年__月__日起至____年__月__日止。

## 二、工作内容和工作地点

乙方同意根据甲方工作需要，担任__________岗位工作，工作地点为__________。

## 三、劳动报酬

乙方月工资为______元，甲方于每月__日前以货币形式足额支付。

## 四、违约责任

任何一方违反本合同约定给对方造成损失的，应当依法承担赔偿责任。

> 本范本为演示内容，仅供参考。`;

const LEASE_TEMPLATE = `# 房屋租赁合同（示范文本）

出租人（甲方）：______________　　承租人（乙方）：______________

## 第一条　房屋基本情况

房屋坐落于__________，建筑面积____平方米。

## 第二条　租赁期限与租金

租赁期限自____年__月__日至____年__月__日，月租金______元，押金______元。

## 第三条　违约责任

甲方提前收回房屋或者乙方提前退租的，违约方应当向对方支付____个月租金作为违约金；违约金不足以弥补损失的，还应当赔偿损失。

> 本范本为演示内容，仅供参考。`;

function seedWorkTools(ctx: DemoContext): void {
  const tools = [
    ['经济补偿金计算器', 'calculator', '/tool/compensation', null, 'enabled'],
    ['加班费计算器', 'calculator', '/tool/overtime', null, 'enabled'],
    ['违约金计算器', 'calculator', '/tool/penalty', null, 'enabled'],
    ['诉讼费计算器', 'calculator', '/tool/litigation-fee', null, 'enabled'],
    ['工伤赔偿计算器', 'calculator', '/tool/injury', null, 'disabled'],
    ['劳动合同范本', 'template', null, CONTRACT_TEMPLATE, 'enabled'],
    ['房屋租赁合同范本', 'template', null, LEASE_TEMPLATE, 'enabled'],
    ['国家法律法规数据库', 'link', 'https://flk.npc.gov.cn', null, 'enabled'],
    ['中国裁判文书网', 'link', 'https://wenshu.court.gov.cn', null, 'enabled'],
    ['12348 中国法网', 'link', 'http://www.12348.gov.cn', null, 'enabled'],
  ] as const;
  const at = ctx.now - 200 * DAY;
  tools.forEach(([name, kind, url, content, status], i) => {
    ctx.add('workTools', {
      name,
      kind,
      url,
      content,
      sort: (i + 1) * 10,
      status,
      createdAt: at + i * HOUR,
      updatedAt: at + i * HOUR,
    });
  });
}

function seedInvites(ctx: DemoContext): void {
  const rng = ctx.random('invites');
  for (let i = 0; i < 10; i++) {
    // Codes from node:crypto: an invitation grants a role, so it must not be guessable.
    const code = randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 12).padEnd(10, 'x');
    const role = i % 4 === 0 ? 'editor' : 'member';
    const maxUses = role === 'editor' ? 1 : rng.pick([1, 5, 10, 50, 100]);
    const at = ctx.now - rng.int(1, 90) * DAY;
    const expired = i % 5 === 3;
    ctx.add('invites', {
      code,
      role,
      maxUses,
      used: rng.int(0, maxUses),
      expiresAt: expired
        ? Math.min(at + 7 * DAY, ctx.now - DAY)
        : i % 3 === 0
          ? null
          : ctx.now + rng.int(7, 60) * DAY,
      createdAt: at,
      updatedAt: at,
    });
  }
}
