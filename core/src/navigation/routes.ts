/**
 * The route table of spec §2: every public and admin route with its Chinese title, whether it
 * needs a login, and (admin) the permission area that opens it. The UI builds its router from
 * this table and `decide()` guards with it, so the two cannot drift apart.
 */
import type { PermissionArea } from '../contract/permissions';

export interface PublicRoute {
  /** react-router pattern; `?` marks an optional segment. */
  pattern: string;
  title: string;
  requiresLogin: boolean;
  /** false: the spec gives the route no screen (/cloud/api). */
  screen: boolean;
}

/**
 * What an admin route shows: a registry-driven list (`resource`, the default), a screen of its own
 * (DOMAIN.md "custom"; their real screens come with their issues), or the server monitor, whose
 * figures are loaded before it renders. The UI picks the component and the tests what to expect
 * from this, so a screen is declared once. A screen of its own may still be built over registry
 * resources of its route: the order board (OMS/order) is the orders definition's actions as a
 * merchant's board, with its refunds as the generic list.
 */
export type AdminScreenKind = 'resource' | 'custom' | 'serverMonitor';

export interface AdminRoute {
  /** Pattern below /admin/. */
  pattern: string;
  title: string;
  area: PermissionArea;
  screen: AdminScreenKind;
}

const pub = (pattern: string, title: string, requiresLogin = false, screen = true): PublicRoute => ({
  pattern,
  title,
  requiresLogin,
  screen,
});

export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  pub('/', '博客'),
  pub('/article/:id', '文章'),
  pub('/photo', '相册'),
  pub('/doc/category', '文档分类'),
  pub('/doc/search', '文档搜索'),
  pub('/doc/detail/:id/:page?', '文档详情', true),
  pub('/doc/list/:categoryId?', '文档列表'),
  pub('/music', '音乐', true),
  pub('/movie', '电影'),
  pub('/movie/:id', '电影详情', true),
  pub('/job', '监控任务', true),
  pub('/ssl', '证书工具', true),
  pub('/color', '配色工具'),
  pub('/merchant_join', '商户入驻'),
  pub('/cloud/api', 'API 网关', false, false),
  pub('/tool/google_code', '动态口令'),
];

const admin = (
  pattern: string,
  title: string,
  area: PermissionArea,
  screen: AdminScreenKind = 'resource',
): AdminRoute => ({ pattern, title, area, screen });

export const ADMIN_ROUTES: readonly AdminRoute[] = [
  admin('crm/supplier', '供应商', 'crm'),
  admin('crm/product', '菜品', 'crm'),
  admin('crm/chat', '客服会话', 'crm'),
  admin('bbs/topic', '帖子', 'bbs'),
  admin('bbs/score', '积分记录', 'bbs'),
  admin('bbs/tag', '标签', 'bbs'),
  admin('bbs/review', '内容审核', 'bbs', 'custom'),
  admin('bbs/node', '分类', 'bbs'),
  admin('bbs/article', '回帖', 'bbs'),
  admin('bbs/wechat', '聊天机器人', 'bbs', 'custom'),
  admin('OMS/store', '门店', 'oms'),
  admin('OMS/category', '商品分类', 'oms'),
  admin('OMS/good', '商品', 'oms'),
  admin('OMS/order', '订单', 'oms', 'custom'),
  admin('OMS/printer', '小票打印机', 'oms'),
  admin('OMS/balance', '余额流水', 'finance'),
  admin('OMS/discount', '满减活动', 'marketing'),
  admin('OMS/coupon', '单品券', 'marketing'),
  admin('OMS/exchangeCoupon', '代金券兑换码', 'marketing'),
  admin('OMS/coupon_rule', '发券规则', 'marketing'),
  admin('OMS/couponLog', '发券记录', 'marketing'),
  admin('OMS/score', '积分', 'marketing'),
  admin('OMS/income', '收入统计', 'finance', 'custom'),
  admin('OMS/invite', '邀请有礼', 'marketing'),
  admin('OMS/miniProgram/ads', '广告位', 'marketing'),
  admin('OMS/miniProgram/module', '模块开关', 'marketing'),
  admin('OMS/chapter', '工资分成', 'finance', 'custom'),
  admin('OMS/card', '储值卡', 'finance'),
  admin('runner/runner', '骑手', 'runner'),
  admin('runner/order', '配送订单', 'runner'),
  admin('runner/dispatch', '按订单派单', 'runner', 'custom'),
  admin('sys-user', '用户管理', 'system'),
  admin('sys-config/platform', '平台设置', 'system'),
  admin('sys-config/old', '历史版本', 'system', 'custom'),
  admin('sys-tools/monitor', '服务器监控', 'system', 'serverMonitor'),
  admin('blog/photo', '图片', 'blog'),
  admin('blog/article', '文章', 'blog'),
  admin('law/work_tool', '工作工具', 'law'),
  admin('law/doc', '文档管理', 'law'),
  admin('law/doc/category', '文档分类', 'law'),
  admin('law/doc_search', '文档搜索', 'law'),
  admin('law/doc_page', '文档详情', 'law'),
  admin('law/lawyer', '律师', 'law'),
  admin('law/third_service', '第三方服务配置', 'system'),
  admin('law/invite', '邀请码', 'law'),
  admin('law/doc_tag', '文档标签', 'law'),
  admin('law/doc_review', '文档审核', 'law'),
  admin('law/doc_tag_rule', '打标规则', 'law'),
  admin('monitor/job', '浏览器任务', 'monitor', 'custom'),
  admin('monitor/ssl', '证书任务', 'monitor', 'custom'),
  admin('monitor/ssl/deploy', '证书部署', 'monitor'),
  admin('music/music', '音乐', 'music'),
  admin('wechat/merchant', '微信商户进件', 'merchant', 'custom'),
  admin('api-market/api', 'API 列表', 'apiMarket', 'custom'),
  admin('api-market/order', 'API 订单', 'apiMarket', 'custom'),
  admin('api-market/user-api-key', '用户 API Key', 'apiMarket', 'custom'),
  admin('cloud/cdn/domain', 'CDN 域名', 'cloud'),
  admin('cloud/cdn/usage', 'CDN 用量', 'cloud', 'custom'),
  admin('movie', '电影', 'movie'),
  admin('member/level', '会员', 'system'),
  admin('staff', '人员', 'system'),
  admin('poster', '推广海报', 'system'),
];

export const ADMIN_LOGIN_PATH = '/admin/login';
export const ADMIN_HOME_PATH = '/admin';
export const SCAN_LOGIN_PATH = '/scan_login';
/** Opened from the QR code: confirms another device's scan login. */
export const SCAN_LOGIN_CONFIRM_PATTERN = '/scan_login/confirm/:ticket';

/**
 * Matches a react-router style pattern (`:param`, optional `:param?`) against a pathname. Case
 * matters, as in the spec (OMS/…) and in the UI's router (its routes are `caseSensitive`).
 */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  const params: Record<string, string> = {};
  let i = 0;
  for (const segment of want) {
    const optional = segment.endsWith('?');
    const name = segment.replace(/^:/, '').replace(/\?$/, '');
    const value = have[i];
    if (value === undefined) {
      if (optional) continue;
      return null;
    }
    if (segment.startsWith(':')) params[name] = safeDecode(value);
    else if (segment !== value) return null;
    i++;
  }
  return i === have.length ? params : null;
}

/** A malformed escape (`/article/%E0`) keeps its raw text instead of throwing out of a guard. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function findPublicRoute(pathname: string): PublicRoute | undefined {
  return PUBLIC_ROUTES.find((r) => matchPattern(r.pattern, pathname));
}

export function findAdminRoute(pathname: string): AdminRoute | undefined {
  const below = /^\/admin(?:\/(.*))?$/.exec(pathname);
  if (!below) return undefined;
  return ADMIN_ROUTES.find((r) => matchPattern(r.pattern, below[1] ?? ''));
}

/**
 * What the UI's router shows at a path: a page of the public layout, a login screen, the back
 * office (whose unknown screens the guard decides after sign-in), or its 404 screen (null). The
 * server answers 404 for null, with the UI so the 404 screen still renders.
 */
export type SiteArea = 'public' | 'login' | 'admin';

export function siteAreaOf(pathname: string): SiteArea | null {
  if (findPublicRoute(pathname)) return 'public';
  if (
    [SCAN_LOGIN_PATH, SCAN_LOGIN_CONFIRM_PATTERN, ADMIN_LOGIN_PATH].some((p) => matchPattern(p, pathname))
  ) {
    return 'login';
  }
  if (matchPattern(ADMIN_HOME_PATH, pathname) || findAdminRoute(pathname)) return 'admin';
  return null;
}
