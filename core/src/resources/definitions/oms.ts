/**
 * Food-ordering operations (DOMAIN.md "OMS"): stores, categories, goods, orders with their refunds
 * and history, receipt printers.
 *
 * Arrive with the order domain (they move money, stock or the ledger in one transaction):
 *   orders: cancel (user / merchant reject / merchant cancel, each with a reason), refund;
 *   orderRefunds: approve, reject, refunded;
 *   orders: print (the receipt as ESC/POS bytes).
 * Arrive with the printer driver: printers testPrint.
 */
import type { ActionDef } from '../define';
import { defineResource } from '../define';
import { f, options } from '../fields';
import { PATTERNS, readOnlyFields } from './common';

export const stores = defineResource({
  name: 'stores',
  title: '门店',
  route: 'OMS/store',
  area: 'oms',
  displayField: 'name',
  softDelete: true,
  fields: {
    name: f.string('门店名称', { required: true, max: 50, unique: true, searchable: true, sortable: true }),
    logo: f.image('Logo', { hideInList: true }),
    phone: f.phone('电话', { required: true, searchable: true }),
    address: f.string('地址', { required: true, max: 200, searchable: true }),
    lng: f.number('经度', { min: -180, max: 180, hideInList: true }),
    lat: f.number('纬度', { min: -90, max: 90, hideInList: true }),
    businessHours: f.string('营业时间', { max: 50, default: '09:00-21:00', help: '如 09:00-21:00' }),
    status: f.enum(
      '状态',
      options(['open', '营业中', 'green'], ['paused', '暂停营业', 'orange'], ['closed', '已关店', 'default']),
      {
        default: 'paused',
        readOnly: true,
      },
    ),
    deliveryRadiusM: f.integer('配送半径（米）', { min: 0, max: 50_000, default: 3000 }),
    minOrderFen: f.money('起送价', { default: 0 }),
    deliveryFeeFen: f.money('配送费', { default: 0 }),
    packingFeeFen: f.money('打包费', { default: 0 }),
    autoAccept: f.boolean('自动接单'),
  },
  actions: [
    {
      name: 'open',
      label: '营业',
      effect: { kind: 'transition', field: 'status', from: ['paused', 'closed'], to: 'open' },
    },
    {
      name: 'pause',
      label: '暂停营业',
      effect: { kind: 'transition', field: 'status', from: ['open'], to: 'paused' },
    },
    {
      name: 'close',
      label: '关店',
      danger: true,
      confirm: '关店后顾客将无法下单，确定关店？',
      effect: { kind: 'transition', field: 'status', from: ['open', 'paused'], to: 'closed' },
    },
  ],
});

export const goodsCategories = defineResource({
  name: 'goodsCategories',
  title: '商品分类',
  route: 'OMS/category',
  area: 'oms',
  displayField: 'name',
  defaultSort: 'sort',
  fields: {
    storeId: f.relation('门店', 'stores', { required: true }),
    name: f.string('分类名称', { required: true, max: 20, searchable: true }),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
    status: f.enum('状态', options(['enabled', '启用', 'green'], ['disabled', '停用', 'default']), {
      default: 'enabled',
    }),
  },
});

export const goods = defineResource({
  name: 'goods',
  title: '商品',
  route: 'OMS/good',
  area: 'oms',
  displayField: 'name',
  softDelete: true,
  fields: {
    storeId: f.relation('门店', 'stores', { required: true }),
    categoryId: f.relation('分类', 'goodsCategories', { required: true }),
    name: f.string('商品名称', { required: true, max: 50, searchable: true, sortable: true }),
    images: f.stringList('图片', { max: 9, itemMax: 500, hideInList: true }),
    description: f.text('描述', { max: 1000 }),
    priceFen: f.money('售价', { required: true, sortable: true, filterable: true }),
    originalPriceFen: f.money('原价', { hideInList: true }),
    stock: f.integer('库存', { min: 0, default: 0, sortable: true, filterable: true }),
    specs: f.json('规格', { shape: 'goodsSpecs' }),
    status: f.enum('状态', options(['onSale', '在售', 'green'], ['offSale', '已下架', 'default']), {
      default: 'offSale',
      readOnly: true,
    }),
    salesCount: f.integer('销量', { readOnly: true, sortable: true }),
    sort: f.integer('排序', { min: 0, max: 9999, default: 0, sortable: true }),
  },
  actions: [
    {
      name: 'putOn',
      label: '上架',
      effect: { kind: 'transition', field: 'status', from: ['offSale'], to: 'onSale' },
    },
    {
      name: 'takeOff',
      label: '下架',
      effect: { kind: 'transition', field: 'status', from: ['onSale'], to: 'offSale' },
    },
  ],
});

export const ORDER_STATUS = options(
  ['pending_payment', '待支付', 'orange'],
  ['paid', '已支付', 'blue'],
  ['accepted', '已接单', 'cyan'],
  ['preparing', '制作中', 'geekblue'],
  ['ready', '待取餐/待配送', 'purple'],
  ['delivering', '配送中', 'magenta'],
  ['delivered', '已送达', 'lime'],
  ['completed', '已完成', 'green'],
  ['cancelled', '已取消', 'default'],
);

const step = (
  name: string,
  label: string,
  from: string[],
  to: string,
  at: string,
  extra: Partial<ActionDef> = {},
): ActionDef => ({
  name,
  label,
  ...extra,
  effect: { kind: 'transition', field: 'status', from, to, set: { [at]: 'now' } },
});

export const orders = defineResource({
  name: 'orders',
  title: '订单',
  route: 'OMS/order',
  area: 'oms',
  displayField: 'orderNo',
  noCreate: true,
  noDelete: true,
  indexes: [
    ['storeId', 'status', '-createdAt'],
    ['paidAt', 'storeId', 'paidFen'],
  ],
  fields: {
    orderNo: f.string('订单号', { readOnly: true, unique: true, searchable: true, filterable: true }),
    storeId: f.relation('门店', 'stores', { readOnly: true }),
    userId: f.relation('顾客', 'users', { readOnly: true }),
    items: f.json('商品明细', { readOnly: true, shape: 'orderItems' }),
    goodsFen: f.money('商品金额', { readOnly: true, hideInList: true }),
    packingFen: f.money('打包费', { readOnly: true, hideInList: true }),
    deliveryFen: f.money('配送费', { readOnly: true, hideInList: true }),
    discountFen: f.money('满减', { readOnly: true, hideInList: true }),
    couponFen: f.money('优惠券', { readOnly: true, hideInList: true }),
    payableFen: f.money('应付', { readOnly: true, sortable: true, filterable: true }),
    paidFen: f.money('实付', { readOnly: true, sortable: true }),
    refundedFen: f.money('已退款', { readOnly: true, hideInList: true }),
    payMethod: f.enum(
      '支付方式',
      options(['balance', '余额'], ['card', '储值卡'], ['wechat', '微信支付'], ['cash', '现金']),
      {
        readOnly: true,
      },
    ),
    fulfilment: f.enum(
      '履约方式',
      options(['delivery', '外卖配送'], ['pickup', '到店自取'], ['dineIn', '堂食']),
      {
        readOnly: true,
      },
    ),
    address: f.string('收货地址', { readOnly: true, max: 200, searchable: true, hideInList: true }),
    remark: f.string('备注', { max: 200, hideInList: true }),
    runnerId: f.relation('骑手', 'runners', { readOnly: true }),
    status: f.enum('状态', ORDER_STATUS, { readOnly: true }),
    paidAt: f.datetime('支付时间', { readOnly: true, hideInList: true, sortable: true }),
    acceptedAt: f.datetime('接单时间', { readOnly: true, hideInList: true }),
    preparingAt: f.datetime('开始制作', { readOnly: true, hideInList: true }),
    readyAt: f.datetime('出餐时间', { readOnly: true, hideInList: true }),
    deliveringAt: f.datetime('开始配送', { readOnly: true, hideInList: true }),
    deliveredAt: f.datetime('送达时间', { readOnly: true, hideInList: true }),
    completedAt: f.datetime('完成时间', { readOnly: true, hideInList: true }),
    cancelledAt: f.datetime('取消时间', { readOnly: true, hideInList: true }),
    cancelReason: f.string('取消原因', { readOnly: true, max: 200, hideInList: true }),
  },
  // The forward steps of the order machine that move no money. Cancelling and refunding write
  // the ledger in the same transaction and arrive with the order domain.
  actions: [
    step('accept', '接单', ['paid'], 'accepted', 'acceptedAt'),
    step('prepare', '开始制作', ['accepted'], 'preparing', 'preparingAt'),
    step('ready', '出餐', ['preparing'], 'ready', 'readyAt'),
    {
      name: 'dispatch',
      label: '开始配送',
      effect: {
        kind: 'transition',
        field: 'status',
        from: ['ready'],
        to: 'delivering',
        when: { fulfilment: ['delivery'] },
        set: { deliveringAt: 'now' },
      },
    },
    step('deliver', '确认送达', ['delivering'], 'delivered', 'deliveredAt'),
    step('complete', '完成', ['delivered'], 'completed', 'completedAt'),
    {
      name: 'pickedUp',
      label: '已取餐',
      effect: {
        kind: 'transition',
        field: 'status',
        from: ['ready'],
        to: 'completed',
        when: { fulfilment: ['pickup', 'dineIn'] },
        set: { completedAt: 'now' },
      },
    },
  ],
  // The rest of the order machine (DOMAIN.md): the customer pays; an order is cancelled unpaid
  // (by the customer, or after 15 minutes), rejected once paid, or cancelled by the merchant
  // until it is delivered — each refunding what was paid, so none is a plain admin transition.
  transitions: [
    {
      name: 'pay',
      label: '支付',
      field: 'status',
      from: ['pending_payment'],
      to: 'paid',
      set: { paidAt: 'now' },
    },
    {
      name: 'cancel',
      label: '取消',
      field: 'status',
      from: ['pending_payment', 'paid', 'accepted', 'preparing', 'ready', 'delivering'],
      to: 'cancelled',
      set: { cancelledAt: 'now' },
    },
  ],
});

export const orderRefunds = defineResource({
  name: 'orderRefunds',
  title: '退款记录',
  route: 'OMS/order',
  area: 'oms',
  displayField: 'refundNo',
  // Written by the order domain (a user's request, a merchant's refund); decided through actions
  // that arrive with it.
  readOnly: true,
  indexes: [
    ['orderId', '-createdAt'],
    ['status', '-createdAt'],
  ],
  fields: readOnlyFields({
    refundNo: f.string('退款单号', { unique: true, searchable: true, filterable: true }),
    orderId: f.relation('订单', 'orders'),
    kind: f.enum('退款类型', options(['full', '整单退款', 'blue'], ['partial', '部分退款', 'cyan'])),
    amountFen: f.money('退款金额', { sortable: true, filterable: true }),
    items: f.json('退款明细', {
      shape: 'refundItems',
    }),
    reason: f.string('退款原因', { max: 200 }),
    status: f.enum(
      '状态',
      options(
        ['pending', '待处理', 'orange'],
        ['approved', '已同意', 'blue'],
        ['rejected', '已拒绝', 'red'],
        ['refunded', '已退款', 'green'],
      ),
    ),
    rejectReason: f.string('拒绝原因', { max: 200, hideInList: true }),
    operatorId: f.relation('处理人', 'users', { hideInList: true }),
    processedAt: f.datetime('处理时间', { sortable: true }),
    refundedAt: f.datetime('退款时间', { sortable: true, hideInList: true }),
  }),
});

export const orderHistory = defineResource({
  name: 'orderHistory',
  title: '订单操作记录',
  // Shown inside an order's detail, not as a screen of its own.
  route: null,
  area: 'oms',
  displayField: 'toStatus',
  readOnly: true,
  defaultSort: 'createdAt',
  indexes: [['orderId', 'createdAt']],
  fields: readOnlyFields({
    orderId: f.relation('订单', 'orders'),
    operatorId: f.relation('操作人', 'users', { help: '为空表示系统自动' }),
    fromStatus: f.enum('原状态', ORDER_STATUS),
    toStatus: f.enum('新状态', ORDER_STATUS),
    note: f.string('备注', { max: 200 }),
  }),
});

export const printers = defineResource({
  name: 'printers',
  title: '小票打印机',
  route: 'OMS/printer',
  area: 'oms',
  displayField: 'name',
  fields: {
    storeId: f.relation('门店', 'stores', { required: true }),
    name: f.string('名称', { required: true, max: 30, searchable: true }),
    kind: f.enum('类型', options(['escpos-tcp', 'ESC/POS 网络打印机', 'blue']), {
      required: true,
      default: 'escpos-tcp',
    }),
    host: f.string('IP/主机名', {
      required: true,
      max: 253,
      pattern: PATTERNS.host,
      patternMessage: '请输入主机名或 IPv4 地址',
      searchable: true,
      help: '如 192.168.1.50',
    }),
    port: f.integer('端口', { required: true, min: 1, max: 65535, default: 9100 }),
    paperWidth: f.enum('纸宽', options(['58', '58 mm'], ['80', '80 mm']), { required: true, default: '58' }),
    copies: f.integer('打印份数', { min: 1, max: 5, default: 1 }),
    autoPrintOnAccept: f.boolean('接单自动打印', { default: true, filterable: true }),
    status: f.enum(
      '状态',
      options(['online', '在线', 'green'], ['offline', '离线', 'default'], ['error', '故障', 'red']),
      { readOnly: true, default: 'offline' },
    ),
    lastSeenAt: f.datetime('最近在线', { readOnly: true, sortable: true }),
  },
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [stores, goodsCategories, goods, orders, orderRefunds, orderHistory, printers];
