/**
 * The API market (DOMAIN.md "API market"): the platform's tools sold as APIs, their plans, orders
 * and quotas, users' keys and the metered calls.
 *
 * The server's api-market area gives the effects: `POST /api/admin/apiOrders` buys a plan for a
 * user (paid from the balance, credits a quota, one transaction), `refund` reverses both (core's
 * api-market/orders.ts); `POST /api/admin/apiKeys` creates a key and `rotate` replaces its
 * secret, each answering the key once (stored hashed). The definitions keep `noCreate`: the
 * generic form is replaced by the area's own body and the custom screens' dialogs.
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { enabledStatus, readOnlyFields, transition } from './common';

/** The tools the gateway `/cloud/api/{code}` serves. */
export const API_HANDLERS = options(
  ['totp', 'TOTP 动态口令校验', 'blue'],
  ['sslCheck', '证书检测', 'green'],
  ['palette', '配色板', 'magenta'],
  ['docSearch', '文档搜索', 'purple'],
);

export const marketApis = defineResource({
  name: 'marketApis',
  title: 'API',
  route: 'api-market/api',
  area: 'apiMarket',
  displayField: 'name',
  fields: {
    code: f.string('接口编码', {
      required: true,
      unique: true,
      min: 2,
      max: 40,
      pattern: '^[a-z][a-z0-9-]*$',
      patternMessage: '须以小写字母开头，只含小写字母、数字和 -',
      searchable: true,
      help: '调用路径 /cloud/api/{编码}，小写字母、数字和 -',
    }),
    name: f.string('名称', { required: true, max: 50, searchable: true }),
    description: f.text('说明', { max: 2000 }),
    method: f.enum('请求方法', options(['GET', 'GET'], ['POST', 'POST'], ['ANY', '任意']), {
      required: true,
      default: 'GET',
    }),
    handler: f.enum('实现', API_HANDLERS, { required: true }),
    freeQuota: f.integer('免费额度（次）', { min: 0, max: 100_000_000, default: 100 }),
    rateLimitPerMin: f.integer('限流（次/分钟）', { required: true, min: 1, max: 100_000, default: 60 }),
    status: enabledStatus(),
  },
});

export const apiPlans = defineResource({
  name: 'apiPlans',
  title: '套餐',
  route: 'api-market/api',
  area: 'apiMarket',
  displayField: 'name',
  fields: {
    apiId: f.relation('API', 'marketApis', { required: true }),
    name: f.string('套餐名称', { required: true, max: 50, searchable: true }),
    calls: f.integer('调用次数', { required: true, min: 1, max: 1_000_000_000, sortable: true }),
    periodDays: f.integer('有效期（天）', { required: true, min: 1, max: 3650, default: 30 }),
    priceFen: f.money('价格', { required: true, sortable: true }),
    status: enabledStatus(),
  },
});

export const apiOrders = defineResource({
  name: 'apiOrders',
  title: 'API 订单',
  route: 'api-market/order',
  area: 'apiMarket',
  displayField: 'orderNo',
  // Created by buying a plan (the area's create handler: {userId, planId}), not by a generic form.
  noCreate: true,
  noDelete: true,
  indexes: [
    ['userId', '-createdAt'],
    ['status', '-createdAt'],
  ],
  fields: readOnlyFields({
    orderNo: f.string('订单号', { unique: true, searchable: true, filterable: true }),
    userId: f.relation('用户', 'users'),
    planId: f.relation('套餐', 'apiPlans'),
    amountFen: f.money('金额', { sortable: true, filterable: true }),
    // The plan's calls when bought: a refund prorates on them even if the plan changes later.
    calls: f.integer('调用次数'),
    status: f.enum(
      '状态',
      options(
        ['unpaid', '待支付', 'orange'],
        ['paid', '已支付', 'green'],
        ['cancelled', '已取消', 'default'],
        ['refunded', '已退款', 'blue'],
      ),
      { default: 'unpaid' },
    ),
    paidAt: f.datetime('支付时间', { sortable: true }),
    cancelledAt: f.datetime('取消时间', { hideInList: true }),
    refundedFen: f.money('退款金额', { hideInList: true }),
    refundedAt: f.datetime('退款时间', { hideInList: true }),
  }),
  actions: [
    transition('cancel', '取消订单', ['unpaid'], 'cancelled', {
      danger: true,
      confirm: '确定取消这笔未支付的订单？',
      set: { cancelledAt: 'now' },
    }),
    {
      name: 'refund',
      label: '退款',
      danger: true,
      confirm: '按未使用的调用次数比例退回余额，并收回该订单剩余的调用额度，确定退款？',
      effect: { kind: 'handler', when: { status: ['paid'] } },
    },
  ],
});

export const apiQuotas = defineResource({
  name: 'apiQuotas',
  title: '调用额度',
  route: 'api-market/order',
  area: 'apiMarket',
  displayField: 'id',
  indexes: [
    ['userId', 'apiId'],
    // A refund finds the quota its order credited.
    ['orderId'],
  ],
  description: '支付订单时自动入账；也可手动发放或调整。',
  fields: {
    userId: f.relation('用户', 'users', { required: true }),
    apiId: f.relation('API', 'marketApis', { required: true }),
    orderId: f.relation('来源订单', 'apiOrders', { readOnly: true, help: '为空表示手动发放' }),
    remaining: f.integer('剩余次数', { required: true, min: 0, sortable: true, filterable: true }),
    expiresAt: f.datetime('过期时间', { sortable: true, filterable: true }),
  },
});

export const apiKeys = defineResource({
  name: 'apiKeys',
  title: 'API Key',
  route: 'api-market/user-api-key',
  area: 'apiMarket',
  displayField: 'name',
  // Created by the area's create handler ({userId, name, scopes?} → the key shown once), not a generic form.
  noCreate: true,
  indexes: [['userId', '-createdAt']],
  fields: {
    userId: f.relation('用户', 'users', { readOnly: true }),
    name: f.string('名称', { required: true, max: 50, searchable: true }),
    prefix: f.string('Key 前缀', { readOnly: true, unique: true, searchable: true, filterable: true }),
    // Stored, never accepted and never returned: the gateway finds a key by its hash.
    secretHash: f.string('密钥摘要', { readOnly: true, writeOnly: true, unique: true, max: 128 }),
    scopes: f.relationList('可调用的 API', 'marketApis', { help: '不选则可调用全部 API' }),
    status: f.enum('状态', options(['active', '有效', 'green'], ['revoked', '已吊销', 'red']), {
      readOnly: true,
      default: 'active',
    }),
    lastUsedAt: f.datetime('最近使用', { readOnly: true, sortable: true }),
    revokedAt: f.datetime('吊销时间', { readOnly: true, hideInList: true }),
    rotatedAt: f.datetime('轮换时间', { readOnly: true, hideInList: true }),
  },
  actions: [
    {
      name: 'rotate',
      label: '轮换',
      confirm: '轮换后旧 Key 立即失效，新 Key 只显示一次，确定轮换？',
      effect: { kind: 'handler', when: { status: ['active'] } },
    },
    transition('revoke', '吊销', ['active'], 'revoked', {
      danger: true,
      confirm: '吊销后使用此 Key 的调用立即失败，且不能恢复，确定吊销？',
      set: { revokedAt: 'now' },
    }),
  ],
});

export const apiCalls = defineResource({
  name: 'apiCalls',
  title: '调用记录',
  route: 'api-market/user-api-key',
  area: 'apiMarket',
  displayField: 'id',
  readOnly: true,
  defaultSort: '-at',
  indexes: [
    ['keyId', '-at'],
    ['apiId', '-at'],
  ],
  fields: readOnlyFields({
    keyId: f.relation('API Key', 'apiKeys'),
    apiId: f.relation('API', 'marketApis'),
    status: f.enum(
      '结果',
      options(
        ['ok', '成功', 'green'],
        ['error', '出错', 'red'],
        ['rateLimited', '超出限流', 'orange'],
        ['noQuota', '额度不足', 'volcano'],
      ),
    ),
    httpStatus: f.integer('HTTP 状态码', { filterable: true }),
    latencyMs: f.integer('耗时（毫秒）', { sortable: true, filterable: true }),
    at: f.datetime('调用时间', { sortable: true, filterable: true }),
  }),
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [marketApis, apiPlans, apiOrders, apiQuotas, apiKeys, apiCalls];
