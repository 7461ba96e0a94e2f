/**
 * People and platform (core definitions/people.ts): member levels, customers (users without a
 * back-office role), store staff, third-party services, promotion posters, a first saved version
 * of the platform settings, and audit entries of the changes an operator would have made.
 * Customers' balances, points and levels are filled in by the order simulation (oms-orders.ts).
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_PRODUCT_NAME, getResource } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import { posterBackground } from './images.js';
import { homeAddress, mobiles, PLACES, type Place, personNames } from './zh.js';

export interface MemberLevel {
  id: number;
  name: string;
  pointsThreshold: number;
}

export interface Customer {
  row: Row & { balanceFen: number; points: number; memberLevelId: number | null };
  place: Place;
  address: string;
  /** Registration time (the row's createdAt). */
  since: number;
}

export function seedMemberLevels(ctx: DemoContext): MemberLevel[] {
  const levels = [
    ['普通会员', 0, 100, '下单累积积分，积分可兑换优惠券'],
    ['白银会员', 200, 98, '全场 98 折；生日当月赠 10 元无门槛券'],
    ['黄金会员', 600, 95, '全场 95 折；每月 2 张免配送费券；生日礼券'],
    ['铂金会员', 1500, 92, '全场 92 折；专属客服；新品优先试吃'],
    ['钻石会员', 3000, 88, '全场 88 折；每月 4 张免配送费券；年度答谢宴邀请'],
  ] as const;
  const at = ctx.now - 400 * DAY;
  return levels.map(([name, pointsThreshold, discountRate, benefits]) =>
    ctx.add('memberLevels', { name, pointsThreshold, discountRate, benefits, createdAt: at, updatedAt: at }),
  );
}

/**
 * A few hundred customers in the three cities, registered over the past 400 days (a few in the
 * last weeks). They cannot sign in: they share one random password nobody knows.
 */
export function seedCustomers(ctx: DemoContext, count: number): Customer[] {
  const rng = ctx.random('customers');
  const password = randomBytes(18).toString('base64url');
  const phones = mobiles(rng, count);
  const names = personNames(rng, count);
  const usernames = new Set<string>();
  const out: Customer[] = [];
  for (let i = 0; i < count; i++) {
    const person = names[i] as (typeof names)[number];
    let username = `${person.pinyin}${rng.int(1, 999)}`;
    while (usernames.has(username)) username = `${person.pinyin}${rng.int(1000, 9999)}`;
    usernames.add(username);
    // Most joined months ago; one in ten in the last three weeks (new-customer coupons).
    const since = rng.chance(0.1)
      ? ctx.now - rng.int(1, 21) * DAY - rng.int(0, 23) * HOUR
      : ctx.now - rng.int(22, 400) * DAY - rng.int(0, 23) * HOUR;
    const place = rng.pick(PLACES);
    const nickname = rng.chance(0.6)
      ? person.name
      : rng.pick(['吃货', '小', '爱喝茶的', '快乐的', '阿', '老']) + person.name.slice(1);
    const lastLoginAt = ctx.now - rng.int(0, 30) * DAY - rng.int(0, 23) * HOUR - rng.int(0, 59) * MINUTE;
    const row = ctx.add('users', {
      username,
      password,
      nickname,
      phone: phones[i],
      email: rng.chance(0.4) ? `${username}@example.com` : null,
      avatar: null,
      roles: [],
      status: rng.chance(0.02) ? 'disabled' : 'active',
      balanceFen: 0,
      points: 0,
      memberLevelId: null as number | null,
      lastLoginAt: Math.max(lastLoginAt, since + HOUR),
      createdAt: since,
      updatedAt: since,
    });
    out.push({ row, place, address: homeAddress(rng, place), since });
  }
  return out;
}

/** Store staff: a manager, cooks, a cashier, a waiter and a packer per store. */
export function seedStaff(ctx: DemoContext, stores: readonly Row[]): void {
  const rng = ctx.random('staff');
  const roles: readonly (readonly [string, number, number])[] = [
    ['manager', 1, 4500],
    ['chef', 2, 3500],
    ['cashier', 1, 2600],
    ['waiter', 1, 2400],
    ['packer', 1, 2300],
  ];
  const total = stores.length * 6 + 4;
  const names = personNames(rng, total);
  const phones = mobiles(rng, total);
  let n = 0;
  for (const store of stores) {
    for (const [position, count, wage] of roles) {
      for (let i = 0; i < count; i++) {
        const at = (store.createdAt as number) + rng.int(0, 60) * DAY;
        ctx.add('staff', {
          name: names[n]?.name,
          phone: phones[n],
          storeId: store.id,
          position,
          wageRate: wage + rng.int(0, 8) * 100,
          status: rng.chance(0.08) ? 'left' : 'active',
          createdAt: at,
          updatedAt: at,
        });
        n++;
      }
    }
  }
  // Headquarters staff not tied to one store.
  for (const position of ['manager', 'chef', 'cashier', 'packer']) {
    const at = ctx.now - rng.int(100, 300) * DAY;
    ctx.add('staff', {
      name: names[n]?.name,
      phone: phones[n],
      storeId: null,
      position,
      wageRate: 3000 + rng.int(0, 10) * 100,
      status: 'active',
      createdAt: at,
      updatedAt: at,
    });
    n++;
  }
}

export function seedThirdServices(ctx: DemoContext): void {
  const at = ctx.now - 180 * DAY;
  // No secrets: a demo has no real credentials, so each service shows as "not set".
  const services = [
    ['阿里云短信', 'sms', 'https://dysmsapi.aliyuncs.com', 'LTAI5tDemoSmsAppId', 'enabled'],
    ['腾讯云对象存储 COS', 'storage', 'https://cos.ap-shanghai.myqcloud.com', '1250000000', 'enabled'],
    ['微信支付', 'payment', 'https://api.mch.weixin.qq.com', 'wx8888888888888888', 'enabled'],
    ['百度智能云文字识别', 'ocr', 'https://aip.baidubce.com/rest/2.0/ocr/v1', '25123456', 'disabled'],
    ['高德地图 Web 服务', 'map', 'https://restapi.amap.com/v3', 'amap-demo-key', 'enabled'],
    ['腾讯云短信（备用）', 'sms', 'https://sms.tencentcloudapi.com', '1400123456', 'disabled'],
  ] as const;
  services.forEach(([name, kind, endpoint, appId, status], i) => {
    ctx.add('thirdServices', {
      name,
      kind,
      endpoint,
      appId,
      secret: null,
      status,
      createdAt: at + i * HOUR,
      updatedAt: at + i * HOUR,
    });
  });
}

export function seedPosters(ctx: DemoContext): void {
  const rng = ctx.random('posters');
  const posters = [
    ['邀请好友 各得 8 元', 'https://wanxiang.example.com/invite?from=poster'],
    ['新品上市 青柠鲜果茶', 'https://wanxiang.example.com/goods?tag=new'],
    ['会员日 全场 95 折', 'https://wanxiang.example.com/member'],
  ] as const;
  posters.forEach(([title, targetUrl], i) => {
    const at = ctx.now - (30 - i * 9) * DAY;
    const row = ctx.add('posters', {
      title,
      background: '',
      targetUrl,
      image: null,
      createdAt: at,
      updatedAt: at,
    });
    ctx.later(async () => {
      row.background = await ctx.file(await posterBackground(rng.fork(title), title), 'jpg');
    });
  });
}

/** Version 1 of the platform settings: the configuration as it stands (the demo does not change it). */
export function seedConfigVersion(ctx: DemoContext, stored: ReadonlyMap<string, unknown>): void {
  const def = getResource('platformConfig');
  const snapshot: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.writeOnly) continue;
    snapshot[name] = stored.has(name) ? stored.get(name) : (field.default ?? null);
  }
  if (snapshot.productName === null) snapshot.productName = DEFAULT_PRODUCT_NAME;
  const at = ctx.now - 200 * DAY;
  ctx.add('configVersions', { version: 1, snapshot, savedBy: ctx.staff.admin, createdAt: at, updatedAt: at });
}

/**
 * Audit entries of the kind the back office writes: store hours changed, goods repriced,
 * articles published, a lawyer verified. They describe rows that exist.
 */
export function seedAuditLogs(ctx: DemoContext): void {
  const rng = ctx.random('audit');
  const entries: { at: number; row: Record<string, unknown> }[] = [];
  const ip = () => rng.pick(['10.0.3.21', '10.0.3.45', '192.168.10.8', '114.242.18.77', '180.169.32.5']);
  const log = (
    at: number,
    userId: number,
    action: string,
    resource: string,
    recordId: number,
    before: unknown,
    after: unknown,
  ) => entries.push({ at, row: { userId, action, resource, recordId, before, after, ip: ip() } });

  for (const store of ctx.rows('stores').slice(0, 4)) {
    const at = ctx.now - rng.int(2, 40) * DAY - rng.int(0, 600) * MINUTE;
    log(
      at,
      ctx.staff.operator,
      'update',
      'stores',
      store.id,
      { businessHours: '10:00-21:00' },
      { businessHours: store.businessHours },
    );
  }
  for (const good of rng.sample(ctx.rows('goods'), 8)) {
    const at = ctx.now - rng.int(1, 50) * DAY - rng.int(0, 600) * MINUTE;
    const price = good.priceFen as number;
    log(at, ctx.staff.operator, 'update', 'goods', good.id, { priceFen: price + 200 }, { priceFen: price });
  }
  for (const article of ctx
    .rows('articles')
    .filter((a) => a.status === 'published')
    .slice(0, 6)) {
    log(
      article.publishedAt as number,
      ctx.staff.editor,
      'publish',
      'articles',
      article.id,
      { status: 'draft' },
      { status: 'published' },
    );
  }
  for (const lawyer of ctx
    .rows('lawyers')
    .filter((l) => l.status === 'verified')
    .slice(0, 4)) {
    log(
      lawyer.verifiedAt as number,
      ctx.staff.editor,
      'verify',
      'lawyers',
      lawyer.id,
      { status: 'pending' },
      { status: 'verified' },
    );
  }
  for (const code of ctx
    .rows('exchangeCodes')
    .filter((c) => c.status === 'void')
    .slice(0, 3)) {
    log(
      code.updatedAt as number,
      ctx.staff.operator,
      'void',
      'exchangeCodes',
      code.id,
      { status: 'unused' },
      { status: 'void' },
    );
  }
  for (const topic of ctx
    .rows('bbsTopics')
    .filter((t) => t.status === 'rejected')
    .slice(0, 3)) {
    log(
      topic.updatedAt as number,
      ctx.staff.editor,
      'reject',
      'bbsTopics',
      topic.id,
      { status: 'pending', rejectReason: null },
      { status: 'rejected', rejectReason: topic.rejectReason },
    );
  }
  for (const job of ctx
    .rows('monitorJobs')
    .filter((j) => j.status === 'paused')
    .slice(0, 2)) {
    log(
      job.updatedAt as number,
      ctx.staff.admin,
      'pause',
      'monitorJobs',
      job.id,
      { status: 'up' },
      { status: 'paused' },
    );
  }
  const customers = ctx.rows('users').filter((u) => u.status === 'disabled');
  for (const user of customers) {
    log(
      user.updatedAt as number,
      ctx.staff.admin,
      'disable',
      'users',
      user.id,
      { status: 'active' },
      { status: 'disabled' },
    );
  }
  entries.sort((a, b) => a.at - b.at);
  for (const { at, row } of entries) ctx.add('auditLogs', { ...row, createdAt: at, updatedAt: at });
}
