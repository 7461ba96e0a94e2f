/**
 * Marketing (core definitions/marketing.ts): 满减 with tiers, coupon templates and the rules that
 * issue them, exchange codes (unguessable, from node:crypto), referral campaigns, the
 * mini-program's banners and module switches. Coupons are issued to users through `Wallet`, which
 * the order simulation also uses (a coupon spent on an order, one returned by a cancellation).
 */
import { type CouponInput, couponExpiresAt, couponInputOf, generateExchangeCode } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import { bannerImage } from './images.js';
import type { Store } from './oms.js';
import type { Customer } from './people.js';

export interface Discount {
  row: Row;
  tiers: readonly { thresholdFen: number; reduceFen: number }[];
  storeIds: readonly number[];
  startAt: number;
  endAt: number;
  stackable: boolean;
  enabled: boolean;
}

export function seedDiscounts(ctx: DemoContext, stores: readonly Store[]): Discount[] {
  const ids = (kind: string) => stores.filter((s) => s.brand.kind === kind).map((s) => s.row.id);
  const specs = [
    {
      name: '全场满减',
      storeIds: [],
      tiers: [
        [3000, 300],
        [5000, 600],
        [8000, 1200],
      ],
      from: -90,
      to: 30,
      stackable: false,
      enabled: true,
    },
    {
      name: '青柠茶事 夏日满减',
      storeIds: ids('tea'),
      tiers: [
        [3000, 500],
        [4500, 900],
      ],
      from: -60,
      to: 20,
      stackable: true,
      enabled: true,
    },
    {
      name: '弄堂小馆 周年庆',
      storeIds: ids('bistro'),
      tiers: [
        [10000, 2000],
        [20000, 5000],
      ],
      from: -40,
      to: -10,
      stackable: false,
      enabled: true,
    },
    {
      name: '京味小厨 午市满减',
      storeIds: ids('homestyle'),
      tiers: [
        [4000, 600],
        [8000, 1500],
      ],
      from: -30,
      to: 60,
      stackable: true,
      enabled: true,
    },
    {
      name: '知味面馆 早餐满减',
      storeIds: ids('noodles'),
      tiers: [[2500, 300]],
      from: 5,
      to: 35,
      stackable: true,
      enabled: true,
    },
    {
      name: '双十二狂欢满减（已停用）',
      storeIds: [],
      tiers: [
        [6000, 1200],
        [12000, 3000],
      ],
      from: -120,
      to: -100,
      stackable: false,
      enabled: false,
    },
  ] as const;
  return specs.map((s, i) => {
    const startAt = ctx.now + s.from * DAY - (ctx.now % DAY);
    const endAt = ctx.now + s.to * DAY - (ctx.now % DAY) - 1000;
    const tiers = s.tiers.map(([thresholdFen, reduceFen]) => ({ thresholdFen, reduceFen }));
    const created = Math.min(startAt, ctx.now) - (3 + i) * DAY;
    const row = ctx.add('discounts', {
      name: s.name,
      storeIds: [...s.storeIds],
      tiers,
      startAt,
      endAt,
      stackableWithCoupon: s.stackable,
      status: s.enabled ? 'enabled' : 'disabled',
      createdAt: created,
      updatedAt: created,
    });
    return { row, tiers, storeIds: s.storeIds, startAt, endAt, stackable: s.stackable, enabled: s.enabled };
  });
}

/** The best 满减 for a store's order at a time: the largest reduction whose threshold the goods reach. */
export function bestDiscount(
  discounts: readonly Discount[],
  storeId: number,
  at: number,
  goodsFen: number,
): { discount: Discount; reduceFen: number } | null {
  let best: { discount: Discount; reduceFen: number } | null = null;
  for (const d of discounts) {
    if (!d.enabled || at < d.startAt || at > d.endAt) continue;
    if (d.storeIds.length > 0 && !d.storeIds.includes(storeId)) continue;
    for (const t of d.tiers)
      if (goodsFen >= t.thresholdFen && (!best || t.reduceFen > best.reduceFen))
        best = { discount: d, reduceFen: t.reduceFen };
  }
  return best;
}

export type TemplateKey =
  | 'newcomer'
  | 'over50'
  | 'over100'
  | 'teaRate'
  | 'noodleItem'
  | 'inviter'
  | 'invitee'
  | 'birthday'
  | 'orderReturn'
  | 'pointsSwap'
  | 'springGift';

export interface Template {
  row: Row;
  key: TemplateKey;
  kind: 'cash' | 'discount' | 'item';
  valueFen: number;
  rate: number | null;
  goodsId: number | null;
  thresholdFen: number;
  validDays: number | null;
  validTo: number | null;
  storeIds: readonly number[];
}

export function seedCouponTemplates(
  ctx: DemoContext,
  stores: readonly Store[],
): Record<TemplateKey, Template> {
  const tea = stores.filter((s) => s.brand.kind === 'tea').map((s) => s.row.id);
  const noodles = stores.filter((s) => s.brand.kind === 'noodles');
  const pianerchuan = noodles[0]?.goods.find((g) => g.row.name === '片儿川')?.row.id ?? null;
  const created = ctx.now - 150 * DAY;
  const fixedFrom = ctx.now - 45 * DAY - (ctx.now % DAY);
  const fixedTo = ctx.now + 15 * DAY - (ctx.now % DAY) - 1000;
  const specs: readonly (Omit<Template, 'row' | 'validTo'> & {
    name: string;
    fixed?: boolean;
    totalQty: number;
    perUserLimit: number;
    enabled?: boolean;
  })[] = [
    {
      key: 'newcomer',
      name: '新人专享 10 元无门槛券',
      kind: 'cash',
      valueFen: 1000,
      rate: null,
      goodsId: null,
      thresholdFen: 0,
      validDays: 7,
      storeIds: [],
      totalQty: 0,
      perUserLimit: 1,
    },
    {
      key: 'over50',
      name: '满 50 减 8 元券',
      kind: 'cash',
      valueFen: 800,
      rate: null,
      goodsId: null,
      thresholdFen: 5000,
      validDays: 14,
      storeIds: [],
      totalQty: 10000,
      perUserLimit: 3,
    },
    {
      key: 'over100',
      name: '满 100 减 20 元券',
      kind: 'cash',
      valueFen: 2000,
      rate: null,
      goodsId: null,
      thresholdFen: 10000,
      validDays: null,
      fixed: true,
      storeIds: [],
      totalQty: 2000,
      perUserLimit: 1,
    },
    {
      key: 'teaRate',
      name: '青柠茶事 85 折券',
      kind: 'discount',
      valueFen: 0,
      rate: 85,
      goodsId: null,
      thresholdFen: 2000,
      validDays: 10,
      storeIds: tea,
      totalQty: 0,
      perUserLimit: 2,
    },
    {
      key: 'noodleItem',
      name: '片儿川 单品立减 5 元',
      kind: 'item',
      valueFen: 500,
      rate: null,
      goodsId: pianerchuan,
      thresholdFen: 0,
      validDays: 7,
      storeIds: noodles.slice(0, 1).map((s) => s.row.id),
      totalQty: 500,
      perUserLimit: 1,
    },
    {
      key: 'inviter',
      name: '邀请有礼·邀请人 15 元券',
      kind: 'cash',
      valueFen: 1500,
      rate: null,
      goodsId: null,
      thresholdFen: 4000,
      validDays: 30,
      storeIds: [],
      totalQty: 0,
      perUserLimit: 20,
    },
    {
      key: 'invitee',
      name: '邀请有礼·新朋友 8 元券',
      kind: 'cash',
      valueFen: 800,
      rate: null,
      goodsId: null,
      thresholdFen: 2000,
      validDays: 14,
      storeIds: [],
      totalQty: 0,
      perUserLimit: 1,
    },
    {
      key: 'birthday',
      name: '生日礼 20 元券',
      kind: 'cash',
      valueFen: 2000,
      rate: null,
      goodsId: null,
      thresholdFen: 6000,
      validDays: 30,
      storeIds: [],
      totalQty: 0,
      perUserLimit: 1,
    },
    {
      key: 'orderReturn',
      name: '满额返 5 元券',
      kind: 'cash',
      valueFen: 500,
      rate: null,
      goodsId: null,
      thresholdFen: 3000,
      validDays: 14,
      storeIds: [],
      totalQty: 0,
      perUserLimit: 10,
    },
    {
      key: 'pointsSwap',
      name: '积分兑换 3 元券',
      kind: 'cash',
      valueFen: 300,
      rate: null,
      goodsId: null,
      thresholdFen: 2000,
      validDays: 30,
      storeIds: [],
      totalQty: 0,
      perUserLimit: 5,
    },
    {
      key: 'springGift',
      name: '新春礼包 12 元券',
      kind: 'cash',
      valueFen: 1200,
      rate: null,
      goodsId: null,
      thresholdFen: 3000,
      validDays: 20,
      storeIds: [],
      totalQty: 300,
      perUserLimit: 1,
    },
    {
      key: 'over100',
      name: '国庆满 200 减 50（已停用）',
      kind: 'cash',
      valueFen: 5000,
      rate: null,
      goodsId: null,
      thresholdFen: 20000,
      validDays: 7,
      storeIds: [],
      totalQty: 1000,
      perUserLimit: 1,
      enabled: false,
    },
  ];
  const out = {} as Record<TemplateKey, Template>;
  specs.forEach((s, i) => {
    const at = created + i * HOUR;
    const row = ctx.add('couponTemplates', {
      name: s.name,
      kind: s.kind,
      valueFen: s.kind === 'discount' ? null : s.valueFen,
      rate: s.rate,
      goodsId: s.goodsId,
      thresholdFen: s.thresholdFen,
      validity: s.fixed ? 'fixed' : 'relative',
      validFrom: s.fixed ? fixedFrom : null,
      validTo: s.fixed ? fixedTo : null,
      validDays: s.fixed ? null : s.validDays,
      totalQty: s.totalQty,
      issuedQty: 0,
      perUserLimit: s.perUserLimit,
      storeIds: [...s.storeIds],
      status: s.enabled === false ? 'disabled' : 'enabled',
      createdAt: at,
      updatedAt: at,
    });
    if (s.enabled === false) return;
    out[s.key] = { ...s, row, validTo: s.fixed ? fixedTo : null };
  });
  return out;
}

export interface Coupon {
  row: Row & { status: string; usedAt: number | null; orderId: number | null };
  template: Template;
  userId: number;
  issuedAt: number;
  expiresAt: number;
}

/** Users' coupons: issued, spent on an order, returned when the order is cancelled. */
export class Wallet {
  private readonly byUser = new Map<number, Coupon[]>();
  private readonly all: Coupon[] = [];

  constructor(private readonly ctx: DemoContext) {}

  issue(
    userId: number,
    template: Template,
    source: 'rule' | 'manual' | 'exchange' | 'referral',
    issuedAt: number,
  ): Coupon {
    // core's rule: 固定日期 ends at its validTo, 领取后 N 天 at the end of the Nth China day.
    const expiresAt =
      couponExpiresAt(
        {
          validity: template.validTo === null ? 'relative' : 'fixed',
          validTo: template.validTo,
          validDays: template.validDays ?? 7,
        },
        issuedAt,
      ) ?? issuedAt + (template.validDays ?? 7) * DAY;
    const coupon: Coupon = {
      row: {
        id: 0,
        userId,
        templateId: template.row.id,
        source,
        status: 'unused',
        issuedAt,
        expiresAt,
        usedAt: null,
        orderId: null,
      },
      template,
      userId,
      issuedAt,
      expiresAt,
    };
    this.all.push(coupon);
    const list = this.byUser.get(userId) ?? [];
    list.push(coupon);
    this.byUser.set(userId, list);
    return coupon;
  }

  /** Unused coupons of a user valid at a time, for a store. */
  available(userId: number, at: number, storeId: number): Coupon[] {
    return (this.byUser.get(userId) ?? []).filter(
      (c) =>
        c.row.status === 'unused' &&
        c.issuedAt <= at &&
        c.expiresAt > at &&
        (c.template.storeIds.length === 0 || c.template.storeIds.includes(storeId)),
    );
  }

  /** Writes the coupons as userCoupons rows, oldest first; expired ones marked so. */
  flush(): void {
    this.all.sort((a, b) => a.issuedAt - b.issuedAt);
    const issued = new Map<number, number>();
    for (const c of this.all) {
      if (c.row.status === 'unused' && c.expiresAt <= this.ctx.now) c.row.status = 'expired';
      const { id: _id, ...fields } = c.row;
      const last = c.row.usedAt ?? c.issuedAt;
      c.row = this.ctx.add('userCoupons', {
        ...fields,
        createdAt: c.issuedAt,
        updatedAt: last,
      }) as Coupon['row'];
      issued.set(c.template.row.id, (issued.get(c.template.row.id) ?? 0) + 1);
    }
    for (const t of this.ctx.rows('couponTemplates')) t.issuedQty = issued.get(t.id) ?? 0;
  }
}

/** A coupon template as core's pricing takes it (`priceOrder`'s coupon): core's `couponInputOf`. */
export function couponInput(t: Template): CouponInput {
  const input = couponInputOf(t);
  if (!input) throw new Error(`demo coupon template ${t.key} lacks what its kind needs`);
  return input;
}

export function seedCouponRules(ctx: DemoContext, t: Record<TemplateKey, Template>): void {
  const rules = [
    ['新用户注册送 10 元券', 'register', null, t.newcomer, 1, -200, null, 'enabled'],
    ['首单完成返满 50 减 8', 'firstOrder', null, t.over50, 1, -200, null, 'enabled'],
    ['单笔满 88 元返 5 元券', 'orderAmount', 8800, t.orderReturn, 1, -90, 60, 'enabled'],
    ['会员生日礼', 'birthday', null, t.birthday, 1, -300, null, 'enabled'],
    ['邀请成功奖励', 'referral', null, t.inviter, 1, -60, 30, 'enabled'],
    ['老用户回流送券（已结束）', 'orderAmount', 5000, t.over50, 2, -200, -120, 'disabled'],
  ] as const;
  rules.forEach(([name, trigger, thresholdFen, template, qty, from, to, status], i) => {
    const at = ctx.now + from * DAY - 2 * DAY + i * HOUR;
    ctx.add('couponRules', {
      name,
      trigger,
      thresholdFen,
      templateId: template.row.id,
      qty,
      startAt: ctx.now + from * DAY,
      endAt: to === null ? null : ctx.now + to * DAY,
      status,
      createdAt: at,
      updatedAt: at,
    });
  });
}

/** A code as the server generates one (core's `generateExchangeCode`: crypto, no look-alikes). */
export const exchangeCode = (): string => generateExchangeCode();

/** Two batches of codes; some redeemed (each a coupon in the wallet), a few voided. */
export function seedExchangeCodes(
  ctx: DemoContext,
  t: Record<TemplateKey, Template>,
  customers: readonly Customer[],
  wallet: Wallet,
): void {
  const rng = ctx.random('exchange');
  const batches = [
    { batch: 'SPRING-2025', template: t.springGift, count: 120, at: ctx.now - 40 * DAY },
    { batch: 'OFFICE-GIFT-01', template: t.over50, count: 80, at: ctx.now - 20 * DAY },
  ];
  const seen = new Set<string>();
  for (const b of batches) {
    for (let i = 0; i < b.count; i++) {
      let code = exchangeCode();
      while (seen.has(code)) code = exchangeCode();
      seen.add(code);
      const state = rng.weighted([
        ['unused', 55],
        ['used', 40],
        ['void', 5],
      ] as const);
      let redeemedBy: number | null = null;
      let redeemedAt: number | null = null;
      let updatedAt = b.at;
      if (state === 'used') {
        const customer = rng.pick(customers.filter((c) => c.since < b.at));
        redeemedBy = customer.row.id;
        redeemedAt = b.at + rng.int(1, 18) * DAY + rng.int(0, 23) * HOUR;
        if (redeemedAt > ctx.now) redeemedAt = ctx.now - rng.int(1, 120) * MINUTE;
        updatedAt = redeemedAt;
        wallet.issue(customer.row.id, b.template, 'exchange', redeemedAt);
      } else if (state === 'void') {
        updatedAt = b.at + rng.int(1, 10) * DAY;
      }
      ctx.add('exchangeCodes', {
        batch: b.batch,
        code,
        templateId: b.template.row.id,
        status: state,
        redeemedBy,
        redeemedAt,
        createdAt: b.at,
        updatedAt,
      });
    }
  }
}

export interface Campaign {
  row: Row;
  startAt: number;
  endAt: number;
  inviter: Template;
  invitee: Template;
}

export function seedReferralCampaigns(ctx: DemoContext, t: Record<TemplateKey, Template>): Campaign[] {
  const specs = [
    ['春季邀请有礼：邀一位好友，各得优惠券', -150, -60, 'disabled'],
    ['邀请好友 各得 8 元', -59, 60, 'enabled'],
  ] as const;
  return specs.map(([name, from, to, status]) => {
    const startAt = ctx.now + from * DAY;
    const endAt = ctx.now + to * DAY;
    const row = ctx.add('referralCampaigns', {
      name,
      inviterRewardId: t.inviter.row.id,
      inviteeRewardId: t.invitee.row.id,
      startAt,
      endAt,
      status,
      createdAt: startAt - 5 * DAY,
      updatedAt: startAt - 5 * DAY,
    });
    return { row, startAt, endAt, inviter: t.inviter, invitee: t.invitee };
  });
}

export function seedBanners(ctx: DemoContext, stores: readonly Store[]): void {
  const rng = ctx.random('banners');
  const tea = stores.find((s) => s.brand.kind === 'tea');
  const specs = [
    [
      '夏日鲜果茶 第二杯半价',
      '青柠茶事全部门店',
      'homeCarousel',
      `/pages/store/index?id=${tea?.row.id ?? 1}`,
      -10,
      20,
      'enabled',
    ],
    [
      '新人专享 10 元无门槛',
      '注册即领，7 天内有效',
      'homeCarousel',
      '/pages/coupon/newcomer',
      -60,
      60,
      'enabled',
    ],
    ['邀请好友 各得 8 元', '好友下单后奖励到账', 'homeCarousel', '/pages/invite/index', -59, 60, 'enabled'],
    ['会员日 全场 95 折', '每月 18 日', 'homePopup', '/pages/member/index', -5, 25, 'enabled'],
    [
      '本帮菜 周年庆',
      '满 100 减 20',
      'orderPage',
      'https://wanxiang.example.com/activity/anniversary',
      -40,
      -10,
      'disabled',
    ],
    ['储值卡 充 300 送 30', '余额永久有效', 'minePage', '/pages/card/index', -90, 90, 'enabled'],
  ] as const;
  specs.forEach(([title, sub, position, link, from, to, status], i) => {
    const at = ctx.now + from * DAY - DAY;
    const row = ctx.add('banners', {
      title,
      position,
      image: '',
      link,
      sort: (i + 1) * 10,
      startAt: ctx.now + from * DAY,
      endAt: ctx.now + to * DAY,
      status,
      createdAt: at,
      updatedAt: at,
    });
    ctx.later(async () => {
      row.image = await ctx.file(await bannerImage(rng.fork(title), title, sub), 'jpg');
    });
  });
}

export function seedAppModules(ctx: DemoContext): void {
  const modules: readonly (readonly [string, string, boolean, Record<string, unknown>])[] = [
    ['takeout', '外卖点餐', true, { minOrderTip: true }],
    ['pickup', '到店自取', true, { prepareMinutes: 15 }],
    ['dineIn', '扫码堂食', true, { tableCodePrefix: 'T' }],
    ['memberCard', '会员卡', true, { showLevel: true }],
    ['prepaidCard', '储值卡', true, { presets: [10000, 30000, 50000] }],
    ['pointsMall', '积分商城', true, { rate: 100 }],
    ['invite', '邀请有礼', true, { campaign: 'current' }],
    ['liveChat', '在线客服', true, { workHours: '09:00-22:00' }],
    ['groupBuy', '拼团', false, { minMembers: 3 }],
    ['reservation', '预约订座', false, { daysAhead: 7 }],
  ];
  const at = ctx.now - 120 * DAY;
  modules.forEach(([key, name, enabled, config], i) => {
    ctx.add('appModules', {
      key,
      name,
      status: enabled ? 'enabled' : 'disabled',
      sort: (i + 1) * 10,
      config,
      createdAt: at + i * MINUTE,
      updatedAt: at + i * MINUTE,
    });
  });
}
