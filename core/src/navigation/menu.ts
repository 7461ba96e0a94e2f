/**
 * The fixed admin menu of spec §2 with its Chinese titles. Disabled items stay visible but
 * cannot be opened. Each leaf names the permission area that opens it; `visibleMenu` hides what a
 * user may not read (DOMAIN.md "the menu hides what a user may not open").
 *
 * Where the spec lists a menu entry but no route (会员, 人员, 推广海报, the document library's
 * 标签/审核/打标规则), the route is ours and is listed in ADMIN_ROUTES too. The server monitor and
 * the saved config versions sit under 平台配置 so they can be reached from the menu.
 *
 * Every admin route is reachable from the menu (core/test/navigation.test.ts). The routes the
 * spec's list does not name sit in the group an operator would open for them, under the route's
 * own title: 回帖 and 客服会话 (talking with customers) under 社区与评价; 工作工具, 律师 and 邀请码
 * (the law area) under 文档库; 证书部署 next to 证书任务 under 监控任务. The spec's 24 top-level
 * entries and their titles are unchanged.
 */
import type { PermissionArea } from '../contract/permissions';

export interface MenuItem {
  menuId: string;
  title: string;
  /** Absolute path under /admin; absent on groups. */
  path?: string;
  area?: PermissionArea;
  disabled?: boolean;
  children?: MenuItem[];
}

const leaf = (menuId: string, title: string, path: string, area: PermissionArea): MenuItem => ({
  menuId,
  title,
  path: `/admin/${path}`,
  area,
});
const group = (menuId: string, title: string, children: MenuItem[]): MenuItem => ({
  menuId,
  title,
  children,
});
const disabled = (menuId: string, title: string): MenuItem => ({ menuId, title, disabled: true });

export const ADMIN_MENU: readonly MenuItem[] = [
  leaf('user', '用户管理', 'sys-user', 'system'),
  leaf('store', '门店', 'OMS/store', 'oms'),
  leaf('goods-category', '商品分类', 'OMS/category', 'oms'),
  leaf('goods', '商品', 'OMS/good', 'oms'),
  leaf('order', '订单', 'OMS/order', 'oms'),
  group('delivery', '配送', [
    leaf('runner', '骑手', 'runner/runner', 'runner'),
    leaf('runner-order', '配送订单', 'runner/order', 'runner'),
    leaf('dispatch', '按订单派单', 'runner/dispatch', 'runner'),
  ]),
  group('supply', '供应链', [
    leaf('supplier', '供应商', 'crm/supplier', 'crm'),
    leaf('dish', '菜品', 'crm/product', 'crm'),
  ]),
  group('device', '设备/监控', [
    disabled('kitchen', '后厨硬件与监控'),
    leaf('printer', '小票打印机', 'OMS/printer', 'oms'),
  ]),
  group('finance', '财务', [
    leaf('income', '收入统计', 'OMS/income', 'finance'),
    leaf('cost', '成本控制', 'OMS/balance', 'finance'),
    leaf('wage', '工资分成', 'OMS/chapter', 'finance'),
  ]),
  group('marketing', '营销', [
    leaf('discount', '满减活动', 'OMS/discount', 'marketing'),
    leaf('coupon', '单品券', 'OMS/coupon', 'marketing'),
    leaf('voucher', '代金券', 'OMS/exchangeCoupon', 'marketing'),
    leaf('coupon-log', '发券记录', 'OMS/couponLog', 'marketing'),
    group('mini-program', '小程序触达', [
      leaf('ads', '广告位', 'OMS/miniProgram/ads', 'marketing'),
      leaf('modules', '模块开关', 'OMS/miniProgram/module', 'marketing'),
    ]),
    disabled('private-domain', '私域运营'),
    leaf('points', '积分', 'OMS/score', 'marketing'),
    leaf('invite', '邀请有礼', 'OMS/invite', 'marketing'),
    leaf('card', '储值卡', 'OMS/card', 'finance'),
    leaf('coupon-rule', '发券规则', 'OMS/coupon_rule', 'marketing'),
  ]),
  group('community', '社区与评价', [
    leaf('topic', '帖子', 'bbs/topic', 'bbs'),
    leaf('reply', '回帖', 'bbs/article', 'bbs'),
    leaf('node', '分类', 'bbs/node', 'bbs'),
    leaf('review', '内容审核', 'bbs/review', 'bbs'),
    leaf('tag', '标签', 'bbs/tag', 'bbs'),
    leaf('bbs-score', '积分记录', 'bbs/score', 'bbs'),
    leaf('chat-bot', '聊天机器人', 'bbs/wechat', 'bbs'),
    leaf('service-chat', '客服会话', 'crm/chat', 'crm'),
  ]),
  group('platform', '平台配置', [
    leaf('platform-config', '平台设置', 'sys-config/platform', 'system'),
    leaf('config-versions', '历史版本', 'sys-config/old', 'system'),
    leaf('server-monitor', '服务器监控', 'sys-tools/monitor', 'system'),
  ]),
  group('doc', '文档库', [
    leaf('doc-manage', '文档管理', 'law/doc', 'law'),
    leaf('doc-category', '文档分类', 'law/doc/category', 'law'),
    leaf('doc-tag', '文档标签', 'law/doc_tag', 'law'),
    leaf('doc-review', '文档审核', 'law/doc_review', 'law'),
    leaf('doc-tag-rule', '打标规则', 'law/doc_tag_rule', 'law'),
    leaf('doc-page', '文档详情', 'law/doc_page', 'law'),
    leaf('doc-search', '文档搜索', 'law/doc_search', 'law'),
    leaf('work-tool', '工作工具', 'law/work_tool', 'law'),
    leaf('lawyer', '律师', 'law/lawyer', 'law'),
    leaf('law-invite', '邀请码', 'law/invite', 'law'),
  ]),
  group('blog', '博客', [
    leaf('article', '文章', 'blog/article', 'blog'),
    leaf('photo', '图片', 'blog/photo', 'blog'),
  ]),
  leaf('member', '会员', 'member/level', 'system'),
  leaf('staff', '人员', 'staff', 'system'),
  leaf('third-service', '第三方服务配置', 'law/third_service', 'system'),
  leaf('poster', '推广海报', 'poster', 'system'),
  group('monitor', '监控任务', [
    leaf('browser-job', '浏览器任务', 'monitor/job', 'monitor'),
    leaf('ssl-job', '证书任务', 'monitor/ssl', 'monitor'),
    leaf('ssl-deploy', '证书部署', 'monitor/ssl/deploy', 'monitor'),
  ]),
  leaf('music', '音乐', 'music/music', 'music'),
  leaf('movie', '电影', 'movie', 'movie'),
  group('api-market', 'API 市场', [
    leaf('api', 'API 列表', 'api-market/api', 'apiMarket'),
    leaf('api-order', '订单', 'api-market/order', 'apiMarket'),
    leaf('api-key', '用户 API Key', 'api-market/user-api-key', 'apiMarket'),
  ]),
  group('cdn', '云 CDN', [
    leaf('cdn-domain', '域名', 'cloud/cdn/domain', 'cloud'),
    leaf('cdn-usage', '用量', 'cloud/cdn/usage', 'cloud'),
  ]),
  leaf('merchant', '微信商户进件', 'wechat/merchant', 'merchant'),
];

/**
 * The menu a user with these permissions sees: leaves they may read, groups that keep at least
 * one openable leaf. Disabled items stay only inside groups that still show.
 */
export function visibleMenu(
  permissions: readonly string[],
  menu: readonly MenuItem[] = ADMIN_MENU,
): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of menu) {
    if (item.children) {
      const children = visibleMenu(permissions, item.children);
      if (children.some((c) => !c.disabled)) out.push({ ...item, children });
    } else if (item.disabled) {
      out.push(item);
    } else if (item.area && permissions.includes(`${item.area}:read`)) {
      out.push(item);
    }
  }
  return out;
}

/** True when the menu holds at least one item a user can open. */
export function hasOpenableItem(menu: readonly MenuItem[]): boolean {
  return menu.some((item) =>
    item.children ? hasOpenableItem(item.children) : !item.disabled && !!item.path,
  );
}
