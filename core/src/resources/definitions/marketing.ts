/**
 * Marketing (DOMAIN.md "OMS"): 满减, coupons and their codes, rules and log, points, referrals,
 * and the mini-program's banners and module switches.
 *
 * The coupon and points domain (server/src/domain/marketing) carries out the handler actions:
 * couponTemplates issue (to chosen users), exchangeCodes generate and voidBatch (a batch of
 * unguessable codes, written or voided at once), pointsLedger adjust (with a reason, moving the
 * user's points). Cross-field rules are the definitions' `rules` (row-rules.ts); which coupon may
 * be used, issued or fired is core/src/marketing.
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { endsAfterStart, requiredWhen } from '../row-rules';
import { enableActions, enabledStatus, PATTERNS, readOnlyFields, transition } from './common';

/** Users an operator gives a coupon to in one go (the CLI sends longer lists in parts). */
export const MAX_ISSUE_USERS = 500;
/** Codes one batch may have. */
export const MAX_EXCHANGE_BATCH = 10_000;

export const discounts = defineResource({
  name: 'discounts',
  title: '满减活动',
  route: 'OMS/discount',
  area: 'marketing',
  displayField: 'name',
  fields: {
    name: f.string('活动名称', { required: true, max: 50, searchable: true }),
    storeIds: f.relationList('适用门店', 'stores', { help: '不选则全部门店适用' }),
    tiers: f.json('满减档位', {
      required: true,
      shape: 'discountTiers',
      help: '如 满 30 减 5、满 50 减 10（金额以分计）',
    }),
    startAt: f.datetime('开始时间', { required: true, sortable: true, filterable: true }),
    endAt: f.datetime('结束时间', { required: true, sortable: true, filterable: true }),
    stackableWithCoupon: f.boolean('可与优惠券同享', { filterable: true }),
    status: enabledStatus(),
  },
  // Tiers ordered, positive and each reducing less than its threshold: the discountTiers shape.
  rules: [endsAfterStart('startAt', 'endAt')],
});

export const COUPON_KINDS = options(
  ['cash', '代金券', 'orange'],
  ['discount', '折扣券', 'blue'],
  ['item', '单品券', 'purple'],
);

export const couponTemplates = defineResource({
  name: 'couponTemplates',
  title: '优惠券',
  route: 'OMS/coupon',
  area: 'marketing',
  displayField: 'name',
  fields: {
    name: f.string('券名称', { required: true, max: 50, searchable: true }),
    kind: f.enum('券类型', COUPON_KINDS, { required: true }),
    valueFen: f.money('面额', { help: '代金券、单品券减免的金额' }),
    rate: f.integer('折扣（%）', { min: 10, max: 99, help: '折扣券：85 表示 85 折' }),
    goodsId: f.relation('指定商品', 'goods', { help: '单品券：仅此商品可用' }),
    thresholdFen: f.money('使用门槛', { default: 0, help: '订单满多少可用，0 为无门槛' }),
    validity: f.enum('有效期类型', options(['fixed', '固定日期'], ['relative', '领取后生效']), {
      required: true,
      default: 'relative',
    }),
    validFrom: f.datetime('生效时间', { hideInList: true }),
    validTo: f.datetime('失效时间', { hideInList: true }),
    validDays: f.integer('有效天数', { min: 1, max: 365, default: 7, help: '领取后多少天内有效' }),
    totalQty: f.integer('发行总量', { min: 0, default: 0, help: '0 表示不限量' }),
    issuedQty: f.integer('已发放', { readOnly: true, sortable: true }),
    perUserLimit: f.integer('每人限领', { min: 1, max: 100, default: 1 }),
    storeIds: f.relationList('适用门店', 'stores', { help: '不选则全部门店适用' }),
    status: enabledStatus(),
  },
  rules: [
    requiredWhen((v) => v.kind === 'cash', 'valueFen', '代金券须填写面额（大于 0）'),
    requiredWhen((v) => v.kind === 'item', 'valueFen', '单品券须填写面额（大于 0）'),
    requiredWhen((v) => v.kind === 'discount', 'rate', '折扣券须填写折扣'),
    requiredWhen((v) => v.kind === 'item', 'goodsId', '单品券须选择指定商品'),
    requiredWhen((v) => v.validity === 'fixed', 'validFrom', '固定日期须填写生效时间'),
    requiredWhen((v) => v.validity === 'fixed', 'validTo', '固定日期须填写失效时间'),
    endsAfterStart('validFrom', 'validTo', '失效时间须晚于生效时间'),
    requiredWhen((v) => v.validity === 'relative', 'validDays', '领取后生效须填写有效天数'),
  ],
  actions: [
    {
      name: 'issue',
      label: '发放',
      input: {
        userIds: f.relationList('发放给', 'users', {
          required: true,
          min: 1,
          max: MAX_ISSUE_USERS,
          help: `每人一张，一次最多 ${MAX_ISSUE_USERS} 位用户；发行总量、每人限领照常计算`,
        }),
      },
      effect: { kind: 'handler', when: { status: ['enabled'] } },
    },
  ],
  related: [{ label: '发放记录', resource: 'userCoupons', field: 'templateId' }],
});

export const exchangeCodes = defineResource({
  name: 'exchangeCodes',
  title: '兑换码',
  route: 'OMS/exchangeCoupon',
  area: 'marketing',
  displayField: 'code',
  // Codes are generated in batches (unguessable, server-side) and voided, never edited or deleted.
  noCreate: true,
  noDelete: true,
  indexes: [['batch', 'status']],
  fields: readOnlyFields({
    batch: f.string('批次', { max: 50, filterable: true, searchable: true }),
    code: f.string('兑换码', { unique: true, searchable: true, filterable: true }),
    templateId: f.relation('优惠券', 'couponTemplates'),
    status: f.enum(
      '状态',
      options(['unused', '未使用', 'green'], ['used', '已兑换', 'blue'], ['void', '已作废', 'default']),
      { default: 'unused' },
    ),
    redeemedBy: f.relation('兑换用户', 'users'),
    redeemedAt: f.datetime('兑换时间', { sortable: true }),
  }),
  actions: [
    transition('void', '作废', ['unused'], 'void', {
      danger: true,
      confirm: '作废后该兑换码不能再兑换，确定作废？',
    }),
    {
      name: 'generate',
      label: '生成兑换码',
      scope: 'collection',
      input: {
        batch: f.string('批次', { required: true, max: 50, help: '如 2024 春节海报；同一批次可分几次生成' }),
        templateId: f.relation('优惠券', 'couponTemplates', { required: true }),
        count: f.integer('数量', { required: true, min: 1, max: MAX_EXCHANGE_BATCH }),
      },
      effect: { kind: 'handler' },
    },
    {
      name: 'voidBatch',
      label: '作废整批',
      scope: 'collection',
      danger: true,
      confirm: '该批次所有未兑换的兑换码将作废，已兑换的不受影响。',
      input: { batch: f.string('批次', { required: true, max: 50 }) },
      effect: { kind: 'handler' },
    },
  ],
});

export const couponRules = defineResource({
  name: 'couponRules',
  title: '发券规则',
  route: 'OMS/coupon_rule',
  area: 'marketing',
  displayField: 'name',
  fields: {
    name: f.string('规则名称', { required: true, max: 50, searchable: true }),
    trigger: f.enum(
      '触发条件',
      options(
        ['register', '新用户注册', 'green'],
        ['firstOrder', '首单完成', 'blue'],
        ['orderAmount', '订单满额', 'orange'],
        ['birthday', '生日当天', 'magenta'],
        ['referral', '邀请成功', 'purple'],
      ),
      { required: true },
    ),
    thresholdFen: f.money('满额门槛', { help: '触发条件为“订单满额”时必填' }),
    templateId: f.relation('发放的券', 'couponTemplates', { required: true }),
    qty: f.integer('每次发放张数', { required: true, min: 1, max: 10, default: 1 }),
    startAt: f.datetime('开始时间', { sortable: true }),
    endAt: f.datetime('结束时间', { sortable: true }),
    status: enabledStatus(),
  },
  rules: [
    requiredWhen((v) => v.trigger === 'orderAmount', 'thresholdFen', '订单满额须填写满额门槛（大于 0）'),
    endsAfterStart('startAt', 'endAt'),
  ],
  related: [{ label: '发放记录', resource: 'userCoupons', field: 'ruleId' }],
});

export const userCoupons = defineResource({
  name: 'userCoupons',
  title: '发券记录',
  route: 'OMS/couponLog',
  area: 'marketing',
  displayField: 'id',
  readOnly: true,
  defaultSort: '-issuedAt',
  indexes: [
    ['userId', 'status'],
    ['templateId', '-issuedAt'],
  ],
  fields: readOnlyFields({
    userId: f.relation('用户', 'users'),
    templateId: f.relation('优惠券', 'couponTemplates'),
    source: f.enum(
      '来源',
      options(
        ['rule', '规则发放', 'blue'],
        ['manual', '手动发放', 'orange'],
        ['exchange', '兑换码', 'purple'],
        ['referral', '邀请奖励', 'magenta'],
      ),
    ),
    status: f.enum(
      '状态',
      options(['unused', '未使用', 'green'], ['used', '已使用', 'blue'], ['expired', '已过期', 'default']),
    ),
    ruleId: f.relation('发券规则', 'couponRules', { hideInList: true }),
    issuedAt: f.datetime('发放时间', { sortable: true, filterable: true }),
    expiresAt: f.datetime('过期时间', { sortable: true }),
    usedAt: f.datetime('使用时间', { sortable: true }),
    orderId: f.relation('使用订单', 'orders'),
  }),
});

export const pointsLedger = defineResource({
  name: 'pointsLedger',
  title: '积分流水',
  route: 'OMS/score',
  area: 'marketing',
  displayField: 'id',
  // Entries are written by the domain and never edited; adjustments are entries of their own.
  readOnly: true,
  indexes: [['userId', '-createdAt']],
  fields: readOnlyFields({
    userId: f.relation('用户', 'users'),
    change: f.integer('变动积分', { sortable: true, filterable: true }),
    balanceAfter: f.integer('变动后积分'),
    reason: f.enum(
      '原因',
      options(
        ['order', '下单奖励', 'green'],
        ['redeem', '积分抵扣', 'orange'],
        ['refund', '退款返还', 'blue'],
        ['referral', '邀请奖励', 'purple'],
        ['adjust', '人工调整', 'red'],
        ['expire', '过期清零', 'default'],
      ),
    ),
    refId: f.integer('关联单据', { filterable: true }),
    note: f.string('备注', { max: 200 }),
  }),
  actions: [
    {
      name: 'adjust',
      label: '调整积分',
      scope: 'collection',
      input: {
        userId: f.relation('用户', 'users', { required: true }),
        change: f.integer('变动积分', {
          required: true,
          min: -10_000_000,
          max: 10_000_000,
          help: '正数增加，负数扣减；扣减后不能低于 0',
        }),
        note: f.string('原因', { required: true, max: 200 }),
      },
      rules: [(v) => (v.change === 0 ? { change: '变动积分不能为 0' } : null)],
      effect: { kind: 'handler' },
    },
  ],
});

export const referralCampaigns = defineResource({
  name: 'referralCampaigns',
  title: '邀请活动',
  route: 'OMS/invite',
  area: 'marketing',
  displayField: 'name',
  fields: {
    name: f.string('活动名称', { required: true, max: 50, searchable: true }),
    inviterRewardId: f.relation('邀请人奖励', 'couponTemplates', { required: true }),
    inviteeRewardId: f.relation('被邀请人奖励', 'couponTemplates', { required: true }),
    startAt: f.datetime('开始时间', { required: true, sortable: true }),
    endAt: f.datetime('结束时间', { required: true, sortable: true }),
    status: enabledStatus(),
  },
  rules: [endsAfterStart('startAt', 'endAt')],
});

export const referrals = defineResource({
  name: 'referrals',
  title: '邀请记录',
  route: 'OMS/invite',
  area: 'marketing',
  displayField: 'id',
  readOnly: true,
  indexes: [['inviterId', '-createdAt']],
  fields: readOnlyFields({
    campaignId: f.relation('邀请活动', 'referralCampaigns'),
    inviterId: f.relation('邀请人', 'users'),
    inviteeId: f.relation('被邀请人', 'users', { unique: true }),
    rewardedAt: f.datetime('奖励发放时间', { sortable: true, help: '为空表示尚未发放' }),
  }),
});

export const banners = defineResource({
  name: 'banners',
  title: '广告位',
  route: 'OMS/miniProgram/ads',
  area: 'marketing',
  displayField: 'title',
  defaultSort: 'sort',
  indexes: [['position', 'sort']],
  fields: {
    title: f.string('标题', { required: true, max: 50, searchable: true }),
    position: f.enum(
      '位置',
      options(
        ['homeCarousel', '首页轮播', 'blue'],
        ['homePopup', '首页弹窗', 'magenta'],
        ['orderPage', '点餐页', 'orange'],
        ['minePage', '我的页', 'cyan'],
      ),
      { required: true },
    ),
    image: f.image('图片', { required: true }),
    link: f.url('跳转链接', { help: '网址或小程序页面路径，如 /pages/goods/index?id=1' }),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
    startAt: f.datetime('开始时间', { sortable: true }),
    endAt: f.datetime('结束时间', { sortable: true }),
    status: enabledStatus(),
  },
  rules: [endsAfterStart('startAt', 'endAt')],
});

export const appModules = defineResource({
  name: 'appModules',
  title: '模块开关',
  route: 'OMS/miniProgram/module',
  area: 'marketing',
  displayField: 'name',
  defaultSort: 'sort',
  fields: {
    key: f.string('模块标识', {
      required: true,
      createOnly: true,
      unique: true,
      max: 40,
      pattern: PATTERNS.code,
      patternMessage: '须以字母开头，只含字母、数字、_ 和 -',
      searchable: true,
      help: '小程序按此标识读取开关，创建后不可修改',
    }),
    name: f.string('模块名称', { required: true, max: 30, searchable: true }),
    status: enabledStatus({ readOnly: true }),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
    config: f.json('模块配置', {
      shape: 'moduleConfig',
      help: 'JSON 对象，由小程序模块自行解释',
    }),
  },
  actions: enableActions,
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [
  discounts,
  couponTemplates,
  exchangeCodes,
  couponRules,
  userCoupons,
  pointsLedger,
  referralCampaigns,
  referrals,
  banners,
  appModules,
];
