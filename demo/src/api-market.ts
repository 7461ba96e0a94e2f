/**
 * The API market (core definitions/api-market.ts): the platform's tools as APIs with plans,
 * users' orders (paid ones from the balance, through the ledger, each crediting a quota), quotas,
 * keys — only a prefix and a SHA-256 of a random secret nobody keeps — and a week of metered calls.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chinaCompactStamp, newApiKey } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import type { Ledger } from './finance.js';
import type { Customer } from './people.js';

const APIS = [
  [
    'totp',
    'TOTP 动态口令校验',
    '校验基于时间的一次性密码（RFC 6238），支持 6/8 位与 30/60 秒步长。',
    'POST',
    'totp',
    1000,
    120,
  ],
  [
    'ssl-check',
    '证书检测',
    '对指定域名发起 TLS 握手，返回证书链、有效期与剩余天数。',
    'GET',
    'sslCheck',
    100,
    30,
  ],
  ['palette', '配色板', '输入一个颜色，返回 10 级色板、HEX/RGB/HSL 与对比度。', 'GET', 'palette', 5000, 300],
  [
    'doc-search',
    '文档搜索',
    '在法律法规文档库中检索，支持一至两个汉字的短词，返回高亮片段。',
    'GET',
    'docSearch',
    200,
    60,
  ],
] as const;

const PLANS: Record<string, readonly (readonly [string, number, number, number])[]> = {
  totp: [
    ['基础包 1 万次', 10_000, 30, 990],
    ['专业包 10 万次', 100_000, 90, 6900],
  ],
  'ssl-check': [
    ['体验包 1000 次', 1000, 30, 1990],
    ['企业包 2 万次', 20_000, 365, 19_900],
  ],
  palette: [['开发者包 5 万次', 50_000, 30, 500]],
  'doc-search': [
    ['检索包 5000 次', 5000, 30, 2900],
    ['检索包 5 万次', 50_000, 180, 19_900],
    ['年度包 50 万次', 500_000, 365, 99_900],
  ],
};

export function seedApiMarket(ctx: DemoContext, customers: readonly Customer[], balance: Ledger): void {
  const rng = ctx.random('api-market');
  const started = ctx.now - 240 * DAY;
  const apis: Row[] = [];
  const plans: { row: Row; api: Row }[] = [];
  APIS.forEach(([code, name, description, method, handler, freeQuota, rateLimitPerMin], i) => {
    const api = ctx.add('marketApis', {
      code,
      name,
      description,
      method,
      handler,
      freeQuota,
      rateLimitPerMin,
      status: 'enabled',
      createdAt: started + i * HOUR,
      updatedAt: started + i * HOUR,
    });
    apis.push(api);
    (PLANS[code] ?? []).forEach(([planName, calls, periodDays, priceFen], k) => {
      plans.push({
        api,
        row: ctx.add('apiPlans', {
          apiId: api.id,
          name: planName,
          calls,
          periodDays,
          priceFen,
          status: k === 2 ? 'disabled' : 'enabled',
          createdAt: started + i * HOUR + (k + 1) * MINUTE,
          updatedAt: started + i * HOUR + (k + 1) * MINUTE,
        }),
      });
    });
  });

  // Developers: a few dozen customers with keys, some of whom bought plans.
  const developers = rng.sample(
    customers.filter((c) => c.since < ctx.now - 30 * DAY && c.row.status === 'active'),
    24,
  );
  const orders: { at: number; row: Record<string, unknown>; plan: (typeof plans)[number]; userId: number }[] =
    [];
  for (let i = 0; i < 60; i++) {
    const dev = rng.pick(developers);
    const plan = rng.pick(plans.filter((p) => p.row.status === 'enabled'));
    const at = Math.max(
      dev.since + DAY,
      ctx.now - rng.int(0, 120) * DAY - rng.int(0, 23) * HOUR - rng.int(1, 59) * MINUTE,
    );
    const status =
      at > ctx.now - 2 * HOUR
        ? 'unpaid'
        : rng.weighted([
            ['paid', 80],
            ['cancelled', 12],
            ['refunded', 5],
            ['unpaid', 3],
          ] as const);
    orders.push({ at, plan, userId: dev.row.id, row: { status } });
  }
  orders.sort((a, b) => a.at - b.at);
  for (const o of orders) {
    const status = o.row.status as string;
    const paidAt = status === 'paid' || status === 'refunded' ? o.at + rng.int(10, 300) * 1000 : null;
    const cancelledAt = status === 'cancelled' ? o.at + rng.int(5, 60) * MINUTE : null;
    const refundedAt =
      status === 'refunded' && paidAt !== null
        ? Math.min(ctx.now - MINUTE, paidAt + rng.int(1, 5) * DAY)
        : null;
    const orderNo = `API${chinaCompactStamp(o.at).slice(0, 8)}${rng.digits(8)}`;
    const amountFen = o.plan.row.priceFen as number;
    const row = ctx.add('apiOrders', {
      orderNo,
      userId: o.userId,
      planId: o.plan.row.id,
      amountFen,
      status,
      paidAt,
      cancelledAt,
      createdAt: o.at,
      updatedAt: refundedAt ?? paidAt ?? cancelledAt ?? o.at,
    });
    if (paidAt !== null) {
      balance.add({
        userId: o.userId,
        at: paidAt,
        change: -amountFen,
        kind: 'pay',
        refType: 'apiOrder',
        refId: row.id,
        note: `API 套餐 ${o.plan.row.name}`,
      });
      if (refundedAt !== null)
        balance.add({
          userId: o.userId,
          at: refundedAt,
          change: amountFen,
          kind: 'refund',
          refType: 'apiOrder',
          refId: row.id,
          note: `API 套餐退款 ${o.plan.row.name}`,
        });
    }
    if (status === 'paid' && paidAt !== null) {
      const calls = o.plan.row.calls as number;
      const expiresAt = paidAt + (o.plan.row.periodDays as number) * DAY;
      ctx.add('apiQuotas', {
        userId: o.userId,
        apiId: o.plan.api.id,
        orderId: row.id,
        remaining:
          expiresAt < ctx.now
            ? rng.int(0, Math.floor(calls / 3))
            : calls - rng.int(0, Math.floor(calls * 0.8)),
        expiresAt,
        createdAt: paidAt,
        updatedAt: Math.min(ctx.now, paidAt + rng.int(1, 20) * DAY),
      });
    }
  }
  // A few quotas granted by hand (no order): partners and compensation.
  for (const dev of rng.sample(developers, 5)) {
    const at = ctx.now - rng.int(1, 60) * DAY;
    ctx.add('apiQuotas', {
      userId: dev.row.id,
      apiId: rng.pick(apis).id,
      orderId: null,
      remaining: rng.pick([500, 1000, 5000]),
      expiresAt: at + 90 * DAY,
      createdAt: at,
      updatedAt: at,
    });
  }

  // Keys: a prefix to recognise and the hash of a secret that was shown once (and is gone).
  const keys: Row[] = [];
  for (const dev of developers) {
    const count = rng.int(1, 2);
    for (let k = 0; k < count; k++) {
      // A key of the gateway's shape (core's newApiKey), so the prefix reads as real ones do.
      const secret = newApiKey((b) => {
        b.set(randomBytes(b.length));
        return b;
      });
      const at = Math.max(dev.since + DAY, ctx.now - rng.int(8, 200) * DAY);
      const revoked = rng.chance(0.12);
      const revokedAt = revoked ? Math.min(ctx.now - HOUR, at + rng.int(1, 30) * DAY) : null;
      keys.push(
        ctx.add('apiKeys', {
          userId: dev.row.id,
          name:
            k === 0
              ? rng.pick(['生产环境', '正式服务', '线上'])
              : rng.pick(['测试环境', '本地开发', '预发布']),
          prefix: secret.slice(0, 11),
          secretHash: createHash('sha256').update(secret).digest('hex'),
          scopes: rng.chance(0.5) ? [] : rng.sample(apis, rng.int(1, 2)).map((a) => a.id),
          status: revoked ? 'revoked' : 'active',
          lastUsedAt: null as number | null,
          revokedAt,
          createdAt: at,
          updatedAt: revokedAt ?? at,
        }),
      );
    }
  }

  // A week of calls.
  const calls: { at: number; row: Record<string, unknown> }[] = [];
  for (let i = 0; i < 3000; i++) {
    const key = rng.pick(keys);
    const scopes = key.scopes as number[];
    const apiId = scopes.length > 0 ? rng.pick(scopes) : null;
    const api = apiId === null ? rng.pick(apis) : (apis.find((a) => a.id === apiId) as Row);
    const from = Math.max(key.createdAt as number, ctx.now - 7 * DAY);
    const to = (key.revokedAt as number | null) ?? ctx.now;
    if (to <= from) continue;
    const at = from + Math.floor(rng.next() * (to - from));
    const status = rng.weighted([
      ['ok', 92],
      ['error', 3],
      ['rateLimited', 3],
      ['noQuota', 2],
    ] as const);
    const base = api.code === 'ssl-check' ? 420 : api.code === 'doc-search' ? 35 : 6;
    calls.push({
      at,
      row: {
        keyId: key.id,
        apiId: api.id,
        status,
        httpStatus: { ok: 200, error: 500, rateLimited: 429, noQuota: 429 }[status],
        latencyMs:
          status === 'ok' || status === 'error'
            ? Math.round(rng.around(base, base * 0.5, 1, base * 6))
            : rng.int(1, 3),
      },
    });
    if (!key.lastUsedAt || (key.lastUsedAt as number) < at) key.lastUsedAt = at;
  }
  calls.sort((a, b) => a.at - b.at);
  for (const { at, row } of calls) ctx.add('apiCalls', { ...row, at, createdAt: at, updatedAt: at });
}
