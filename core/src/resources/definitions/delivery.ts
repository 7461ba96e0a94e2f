/**
 * Delivery (DOMAIN.md "runner"): runners and the deliveries of orders.
 *
 * A delivery moves with its order (the order machine's accept, dispatch, deliver, cancel); the
 * dispatcher assigns and reassigns its runner (`assign`), keeping the order, the delivery and the
 * runners' status in step in one transaction (server/src/domain/orders/deliveries.ts).
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { readOnlyFields } from './common';

export const runners = defineResource({
  name: 'runners',
  title: '骑手',
  route: 'runner/runner',
  area: 'runner',
  displayField: 'name',
  softDelete: true,
  fields: {
    name: f.string('姓名', { required: true, max: 20, searchable: true, sortable: true }),
    phone: f.phone('手机号', { required: true, unique: true, searchable: true }),
    status: f.enum(
      '状态',
      options(['offline', '离线', 'default'], ['idle', '空闲', 'green'], ['delivering', '配送中', 'blue']),
      { default: 'offline' },
    ),
    storeIds: f.relationList('服务门店', 'stores', { help: '不选则可接所有门店的单' }),
    vehicle: f.enum(
      '交通工具',
      options(
        ['ebike', '电动车'],
        ['motorcycle', '摩托车'],
        ['bicycle', '自行车'],
        ['car', '汽车'],
        ['onFoot', '步行'],
      ),
      { default: 'ebike' },
    ),
    lng: f.number('经度', { readOnly: true, hideInList: true }),
    lat: f.number('纬度', { readOnly: true, hideInList: true }),
    todayCount: f.integer('今日单量', { readOnly: true, sortable: true }),
  },
});

export const deliveries = defineResource({
  name: 'deliveries',
  title: '配送订单',
  route: 'runner/order',
  area: 'runner',
  displayField: 'id',
  // Created when a delivery order is ready and moved by dispatch and the runner; read here.
  readOnly: true,
  indexes: [
    ['status', '-createdAt'],
    ['runnerId', '-createdAt'],
  ],
  fields: readOnlyFields({
    orderId: f.relation('订单', 'orders', { unique: true }),
    runnerId: f.relation('骑手', 'runners'),
    status: f.enum(
      '状态',
      options(
        ['waiting', '待派单', 'orange'],
        ['assigned', '已派单', 'blue'],
        ['pickedUp', '已取货', 'cyan'],
        ['delivered', '已送达', 'green'],
        ['failed', '配送失败', 'red'],
      ),
    ),
    distanceM: f.integer('配送距离（米）', { sortable: true }),
    feeFen: f.money('配送费', { sortable: true }),
    assignedAt: f.datetime('派单时间', { sortable: true }),
    pickedUpAt: f.datetime('取货时间', { hideInList: true }),
    deliveredAt: f.datetime('送达时间', { sortable: true }),
    failReason: f.string('失败原因', { max: 200, hideInList: true }),
  }),
  actions: [
    {
      name: 'assign',
      label: '派单/改派',
      input: { runnerId: f.relation('骑手', 'runners', { required: true }) },
      effect: { kind: 'handler', when: { status: ['waiting', 'assigned'] } },
    },
  ],
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [runners, deliveries];
