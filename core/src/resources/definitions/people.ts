/**
 * People and platform (DOMAIN.md): users, member levels, staff, platform config and its versions,
 * third-party services, posters, audit logs.
 *
 * thirdServices test calls the provider under the outbound policy (server/src/domain/third-services);
 * posters generate renders the background with a QR code into an image (server/src/domain/posters).
 */
import { ROLES } from '../../contract/permissions';
import { defineResource } from '../define';
import { f, options } from '../fields';

const ROLE_OPTIONS = Object.entries(ROLES).map(([value, role]) => ({ value, label: role.title }));

export const users = defineResource({
  name: 'users',
  title: '用户',
  route: 'sys-user',
  area: 'system',
  displayField: 'username',
  softDelete: true,
  fields: {
    username: f.string('用户名', {
      required: true,
      min: 3,
      max: 32,
      pattern: '^[A-Za-z0-9_.-]+$',
      patternMessage: '只能包含字母、数字、_、. 和 -',
      unique: true,
      searchable: true,
      sortable: true,
    }),
    password: f.password('密码', {
      required: true,
      createOnly: true,
      help: '至少 8 位；之后用“重置密码”修改',
    }),
    nickname: f.string('昵称', { max: 32, searchable: true }),
    // Filterable so a list of mobile numbers finds its users (`wanxiang coupons issue --users @file`).
    phone: f.phone('手机号', { searchable: true, filterable: true }),
    email: f.email('邮箱', { hideInList: true }),
    avatar: f.image('头像', { hideInList: true }),
    roles: f.enumList('角色', ROLE_OPTIONS),
    status: f.enum('状态', options(['active', '正常', 'green'], ['disabled', '已停用', 'red']), {
      default: 'active',
      readOnly: true,
    }),
    balanceFen: f.money('余额', { readOnly: true, sortable: true }),
    points: f.integer('积分', { readOnly: true, sortable: true }),
    memberLevelId: f.relation('会员等级', 'memberLevels'),
    lastLoginAt: f.datetime('最近登录', { readOnly: true, sortable: true }),
  },
  actions: [
    {
      name: 'resetPassword',
      label: '重置密码',
      input: { password: f.password('新密码', { required: true }) },
      effect: { kind: 'handler' },
    },
    {
      name: 'disable',
      label: '停用',
      danger: true,
      confirm: '停用后该用户的所有登录立即失效，确定停用？',
      effect: { kind: 'handler', when: { status: ['active'] } },
    },
    { name: 'enable', label: '启用', effect: { kind: 'handler', when: { status: ['disabled'] } } },
  ],
});

export const memberLevels = defineResource({
  name: 'memberLevels',
  title: '会员等级',
  route: 'member/level',
  area: 'system',
  displayField: 'name',
  defaultSort: 'pointsThreshold',
  fields: {
    name: f.string('等级名称', { required: true, max: 20, unique: true, searchable: true }),
    pointsThreshold: f.integer('所需积分', { required: true, min: 0, sortable: true }),
    discountRate: f.integer('折扣（%）', {
      required: true,
      min: 50,
      max: 100,
      default: 100,
      help: '95 表示 95 折',
    }),
    benefits: f.text('权益说明', { max: 500 }),
  },
});

export const staff = defineResource({
  name: 'staff',
  title: '人员',
  route: 'staff',
  area: 'system',
  displayField: 'name',
  softDelete: true,
  fields: {
    name: f.string('姓名', { required: true, max: 20, searchable: true }),
    phone: f.phone('手机号', { required: true, searchable: true }),
    storeId: f.relation('所属门店', 'stores'),
    position: f.enum(
      '岗位',
      options(
        ['manager', '店长'],
        ['chef', '厨师'],
        ['cashier', '收银'],
        ['waiter', '服务员'],
        ['packer', '打包员'],
      ),
      { required: true },
    ),
    wageRate: f.money('时薪', { min: 0, max: 100_000 }),
    status: f.enum('状态', options(['active', '在职', 'green'], ['left', '离职', 'default']), {
      default: 'active',
    }),
  },
});

export const platformConfig = defineResource({
  name: 'platformConfig',
  title: '平台设置',
  route: 'sys-config/platform',
  area: 'system',
  displayField: 'productName',
  noCreate: true,
  noDelete: true,
  description: '平台的一份配置；每次保存都会在“历史版本”留下一份。',
  fields: {
    productName: f.string('产品名称', { required: true, max: 30 }),
    pageTitle: f.string('页面标题', { max: 60, help: '不填则使用产品名称' }),
    copyright: f.string('版权信息', { max: 100 }),
    allowRegistration: f.boolean('开放注册'),
    apiHost: f.url('API 地址', { hideInList: true, help: '不填则与页面同源' }),
    wsHost: f.url('WebSocket 地址', { hideInList: true, help: '不填则与页面同源' }),
    contact: f.string('联系方式', { max: 100 }),
    icpNumber: f.string('ICP 备案号', { max: 50 }),
    // Order settings (as macrozheng mall's 订单设置): the timers and the points rule.
    unpaidCancelMinutes: f.integer('未支付自动取消（分钟）', {
      min: 5,
      max: 1440,
      default: 15,
      hideInList: true,
    }),
    deliveryCompleteMinutes: f.integer('配送自动完成（分钟）', {
      min: 30,
      max: 4320,
      default: 120,
      hideInList: true,
      help: '开始配送后超过此时间未确认，订单自动完成',
    }),
    pointsMaxSharePercent: f.integer('积分抵扣上限（%）', {
      min: 0,
      max: 100,
      default: 50,
      hideInList: true,
      help: '100 积分抵 1 元，最多抵扣订单金额的此比例',
    }),
  },
});

export const configVersions = defineResource({
  name: 'configVersions',
  title: '历史版本',
  route: 'sys-config/old',
  area: 'system',
  displayField: 'version',
  readOnly: true,
  defaultSort: '-version',
  fields: {
    version: f.integer('版本', { readOnly: true, sortable: true }),
    snapshot: f.json('配置内容', { readOnly: true, hideInList: false }),
    savedBy: f.relation('保存人', 'users', { readOnly: true }),
  },
  actions: [
    {
      name: 'restore',
      label: '恢复此版本',
      confirm: '用这一版本覆盖当前平台设置（会保存为新版本）？',
      effect: { kind: 'handler' },
    },
  ],
});

export const thirdServices = defineResource({
  name: 'thirdServices',
  title: '第三方服务配置',
  route: 'law/third_service',
  area: 'system',
  displayField: 'name',
  fields: {
    name: f.string('名称', { required: true, max: 50, searchable: true }),
    kind: f.enum(
      '类型',
      options(
        ['sms', '短信'],
        ['storage', '对象存储'],
        ['payment', '支付'],
        ['ocr', '文字识别'],
        ['map', '地图'],
      ),
      { required: true },
    ),
    endpoint: f.url('接口地址', { required: true }),
    appId: f.string('AppID', { max: 100 }),
    secret: f.password('密钥', { min: 1, max: 500, required: false, help: '只写：保存后不再显示' }),
    status: f.enum('状态', options(['enabled', '启用', 'green'], ['disabled', '停用', 'default']), {
      default: 'enabled',
    }),
  },
  actions: [
    // Calls the endpoint once under the caller's outbound policy (server/src/domain/third-services);
    // answers {reachable, httpStatus, latencyMs, error}, never the secret.
    { name: 'test', label: '测试', effect: { kind: 'handler' } },
  ],
});

export const posters = defineResource({
  name: 'posters',
  title: '推广海报',
  route: 'poster',
  area: 'system',
  displayField: 'title',
  fields: {
    title: f.string('标题', { required: true, max: 50, searchable: true }),
    background: f.image('背景图', { required: true }),
    // Before the link: a narrow list keeps the generated poster and drops the long link first.
    image: f.image('生成的海报', { readOnly: true }),
    targetUrl: f.url('二维码链接', { required: true, max: 1000 }),
  },
  actions: [
    // Saving a new background or link regenerates by itself (server/src/domain/posters); this
    // renders again on demand (e.g. after the stored image was lost).
    { name: 'generate', label: '生成', effect: { kind: 'handler' } },
  ],
});

export const auditLogs = defineResource({
  name: 'auditLogs',
  title: '操作日志',
  route: null,
  area: 'system',
  displayField: 'action',
  readOnly: true,
  indexes: [
    ['resource', 'recordId', '-createdAt'],
    ['userId', '-createdAt'],
  ],
  fields: {
    userId: f.relation('操作人', 'users', { readOnly: true }),
    action: f.string('操作', { readOnly: true, filterable: true, searchable: true }),
    resource: f.string('资源', { readOnly: true, filterable: true }),
    recordId: f.integer('记录 ID', { readOnly: true, filterable: true }),
    before: f.json('修改前', { readOnly: true, shape: 'auditDiff' }),
    after: f.json('修改后', { readOnly: true, shape: 'auditDiff' }),
    ip: f.string('IP', { readOnly: true, filterable: true }),
  },
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [
  users,
  memberLevels,
  staff,
  platformConfig,
  configVersions,
  thirdServices,
  posters,
  auditLogs,
];
