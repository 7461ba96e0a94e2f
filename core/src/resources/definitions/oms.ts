/**
 * Food-ordering operations (DOMAIN.md "OMS"): stores, categories, goods, orders with their refunds
 * and history, receipt printers.
 *
 * The orders' status moves are the order machine's (core/src/orders/moves.ts): the admin actions
 * and life-cycle steps of `orders` are derived from it, and the orders area of the server carries
 * each out through it (money, stock, coupons, points, deliveries and history in one transaction).
 * Printing (server/src/domain/printing): orders print and printers testPrint queue a print job and
 * send the receipt's ESC/POS bytes to the printer after the commit.
 */

import {
  FULFILMENT_LABELS,
  FULFILMENTS,
  ORDER_MOVES,
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  type OrderMove,
  type OrderStatus,
} from '../../orders/moves';
import { PAY_METHOD_LABELS, PAY_METHODS } from '../../orders/pay-methods';
import { REFUNDABLE_STATUSES } from '../../orders/refund';
import type { ActionDef, LifecycleTransition } from '../define';
import { defineResource } from '../define';
import { type FieldDef, f, options } from '../fields';
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
    // The category picker lists the chosen store's categories; the server refuses another's.
    categoryId: f.relation('分类', 'goodsCategories', { required: true, within: 'storeId' }),
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

const STATUS_COLOURS: Record<OrderStatus, string> = {
  pending_payment: 'orange',
  paid: 'blue',
  accepted: 'cyan',
  preparing: 'geekblue',
  ready: 'purple',
  delivering: 'magenta',
  delivered: 'lime',
  completed: 'green',
  cancelled: 'default',
};

export const ORDER_STATUS = options(
  ...ORDER_STATUSES.map((s) => [s, ORDER_STATUS_LABELS[s], STATUS_COLOURS[s]] as [string, string, string]),
);

const PAY_METHOD_OPTIONS = options(...PAY_METHODS.map((v) => [v, PAY_METHOD_LABELS[v]] as [string, string]));

/** What an admin move takes besides the order: a reason, the payment, the runner. */
function moveInput(move: OrderMove): Record<string, FieldDef> | undefined {
  if (move.name === 'pay')
    return {
      payMethod: f.enum('支付方式', PAY_METHOD_OPTIONS, { required: true }),
      cardId: f.relation('储值卡', 'prepaidCards', { help: '储值卡支付时必选' }),
    };
  if (move.name === 'dispatch')
    return { runnerId: f.relation('骑手', 'runners', { help: '不选则用已指派的骑手' }) };
  if (move.needsReason) return { reason: f.string(`${move.label}原因`, { required: true, max: 200 }) };
  return undefined;
}

/**
 * The moves of the order machine (core/src/orders/moves.ts) that the store's staff make, as admin
 * actions: each is carried out by the orders area through the machine (`effect: handler`), offered
 * only where the machine allows it (`when`).
 */
const orderActions: ActionDef[] = ORDER_MOVES.filter((m) => m.by.includes('merchant')).map((m) => {
  const input = moveInput(m);
  return {
    name: m.name,
    label: m.label,
    ...(m.confirm ? { confirm: m.confirm } : {}),
    ...(m.danger ? { danger: true } : {}),
    ...(input ? { input } : {}),
    effect: {
      kind: 'handler',
      when: { status: m.from, ...(m.fulfilment ? { fulfilment: m.fulfilment } : {}) },
    },
  };
});

/** Every move of the machine as a step of the orders' life cycle (lifecycle.ts walks them). */
const orderSteps: LifecycleTransition[] = ORDER_MOVES.map((m) => ({
  name: m.name,
  label: m.label,
  field: 'status',
  from: m.from,
  to: m.to,
  ...(m.fulfilment ? { when: { fulfilment: m.fulfilment } } : {}),
  set: { [m.stamp]: 'now' },
}));

export const orders = defineResource({
  name: 'orders',
  title: '订单',
  route: 'OMS/order',
  area: 'oms',
  displayField: 'orderNo',
  // No generic form: counter orders are created by the orders area (POST /api/admin/orders),
  // priced by the server with core's priceOrder.
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
    memberFen: f.money('会员折扣', { readOnly: true, hideInList: true }),
    packingFen: f.money('打包费', { readOnly: true, hideInList: true }),
    deliveryFen: f.money('配送费', { readOnly: true, hideInList: true }),
    discountFen: f.money('满减', { readOnly: true, hideInList: true }),
    couponFen: f.money('优惠券', { readOnly: true, hideInList: true }),
    couponId: f.relation('使用的券', 'userCoupons', { readOnly: true, hideInList: true }),
    pointsUsed: f.integer('使用积分', { readOnly: true, hideInList: true }),
    pointsFen: f.money('积分抵扣', { readOnly: true, hideInList: true }),
    pointsRefunded: f.integer('已退积分', { readOnly: true, hideInList: true }),
    payableFen: f.money('应付', { readOnly: true, sortable: true, filterable: true }),
    paidFen: f.money('实付', { readOnly: true, sortable: true }),
    refundedFen: f.money('已退款', { readOnly: true, hideInList: true }),
    payMethod: f.enum('支付方式', PAY_METHOD_OPTIONS, { readOnly: true }),
    cardId: f.relation('支付储值卡', 'prepaidCards', { readOnly: true, hideInList: true }),
    fulfilment: f.enum(
      '履约方式',
      options(...FULFILMENTS.map((v) => [v, FULFILMENT_LABELS[v]] as [string, string])),
      { readOnly: true },
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
  actions: [
    ...orderActions,
    {
      name: 'refund',
      label: '退款',
      danger: true,
      input: {
        reason: f.string('退款原因', { required: true, max: 200 }),
        amountFen: f.money('退款金额', { help: '不填则退还全部可退金额' }),
        lines: f.json('按商品退款', { shape: 'refundLines', help: '[{index, qty}]：第几行商品退几件' }),
      },
      effect: { kind: 'handler', when: { status: REFUNDABLE_STATUSES } },
    },
    {
      name: 'print',
      label: '打印小票',
      input: {
        printerId: f.relation('打印机', 'printers', { help: '不选则用订单门店的第一台打印机' }),
      },
      // Receipts are for paid orders: every state from payment on, except cancelled.
      effect: {
        kind: 'handler',
        when: {
          status: ORDER_STATUS.map((o) => o.value).filter(
            (s) => s !== 'pending_payment' && s !== 'cancelled',
          ),
        },
      },
    },
  ],
  transitions: orderSteps,
});

export const orderRefunds = defineResource({
  name: 'orderRefunds',
  title: '退款记录',
  route: 'OMS/order',
  area: 'oms',
  displayField: 'refundNo',
  // Written by the order domain: a merchant's refund is refunded at once; a customer's request
  // waits (pending) for the merchant to approve (then it is refunded) or reject it with a reason.
  noCreate: true,
  noDelete: true,
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
    payMethod: f.enum('退款去向', PAY_METHOD_OPTIONS),
    points: f.integer('退还积分', { hideInList: true }),
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
  actions: [
    {
      name: 'approve',
      label: '同意退款',
      confirm: '同意后款项将原路退回，确定同意？',
      effect: { kind: 'handler', when: { status: ['pending'] } },
    },
    {
      name: 'reject',
      label: '拒绝退款',
      danger: true,
      input: { rejectReason: f.string('拒绝原因', { required: true, max: 200 }) },
      effect: { kind: 'handler', when: { status: ['pending'] } },
    },
  ],
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
  // A printer taken out of service keeps its print jobs pointing at it.
  softDelete: true,
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
    // Outbound connections reach loopback, private and link-local addresses only for users with
    // the monitoring permission (QUALITY.md); a printer sits on the shop's LAN, so its address is
    // reached under the permission of whoever last set it (server/src/domain/printing/README.md).
    addressSetById: f.relation('地址设置人', 'users', {
      readOnly: true,
      hideInList: true,
      help: '最后设置 IP/主机名或端口的用户；内网地址须由有监控权限的用户设置才能连接',
    }),
  },
  actions: [{ name: 'testPrint', label: '测试打印', effect: { kind: 'handler' } }],
});

export const printJobs = defineResource({
  name: 'printJobs',
  title: '打印记录',
  route: 'OMS/printer',
  area: 'oms',
  displayField: 'id',
  // Written by the printing domain (an order's receipt, a test page); shown under the printers.
  readOnly: true,
  fields: readOnlyFields({
    printerId: f.relation('打印机', 'printers'),
    orderId: f.relation('订单', 'orders', { help: '测试页为空' }),
    kind: f.enum('类型', options(['receipt', '订单小票', 'blue'], ['test', '测试页', 'default'])),
    status: f.enum(
      '状态',
      options(
        ['queued', '排队中', 'default'],
        ['printing', '打印中', 'blue'],
        ['done', '已打印', 'green'],
        ['failed', '打印失败', 'red'],
      ),
    ),
    copies: f.integer('份数'),
    attempts: f.integer('尝试次数'),
    error: f.string('失败原因', { max: 500 }),
    bytes: f.integer('字节数', { hideInList: true }),
    operatorId: f.relation('操作人', 'users', { hideInList: true, help: '为空表示系统自动' }),
    printedAt: f.datetime('打印时间', { sortable: true }),
  }),
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [
  stores,
  goodsCategories,
  goods,
  orders,
  orderRefunds,
  orderHistory,
  printers,
  printJobs,
];
