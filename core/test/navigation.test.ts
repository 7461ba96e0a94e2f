/** The route table and the admin menu of spec §2, and how roles filter the menu. */
import { describe, expect, it } from 'vitest';
import {
  ADMIN_MENU,
  ADMIN_ROUTES,
  findAdminRoute,
  findPublicRoute,
  hasOpenableItem,
  listingsOfRoute,
  type MenuItem,
  matchPattern,
  PUBLIC_ROUTES,
  permissionsOf,
  ROLES,
  SCAN_LOGIN_CONFIRM_PATTERN,
  siteAreaOf,
  visibleMenu,
} from '../src/index';

function leaves(menu: readonly MenuItem[]): MenuItem[] {
  return menu.flatMap((item) => (item.children ? leaves(item.children) : [item]));
}
const openableLeaves = (menu: readonly MenuItem[]) => leaves(menu).filter((l) => !l.disabled && l.path);
const pathsOf = (menu: readonly MenuItem[]) => openableLeaves(menu).map((l) => l.path);

describe('matchPattern', () => {
  it.each([
    ['/photo', '/photo', {}],
    ['/', '/', {}],
    ['/article/:id', '/article/42', { id: '42' }],
    ['/doc/detail/:id/:page?', '/doc/detail/7', { id: '7' }],
    ['/doc/detail/:id/:page?', '/doc/detail/7/3', { id: '7', page: '3' }],
    ['/doc/list/:categoryId?', '/doc/list', {}],
    ['/doc/list/:categoryId?', '/doc/list/5', { categoryId: '5' }],
    ['/doc/list/:categoryId?', '/doc/list/5/', { categoryId: '5' }],
    ['/article/:id', '/article/%E5%90%88%E5%90%8C', { id: '合同' }],
    ['/article/:id', '/article/%E0', { id: '%E0' }],
    ['law/doc/category', 'law/doc/category', {}],
    ['/article/:id', '/article/AbC', { id: 'AbC' }],
  ])('%s matches %s with %j', (pattern, path, params) => {
    expect(matchPattern(pattern, path)).toEqual(params);
  });

  it.each([
    ['/photo', '/photos'],
    ['/photo', '/'],
    ['/', '/photo'],
    ['/article/:id', '/article'],
    ['/article/:id', '/article/1/2'],
    ['/doc/detail/:id/:page?', '/doc/detail'],
    ['/doc/detail/:id/:page?', '/doc/detail/1/2/3'],
    ['/doc/list/:categoryId?', '/doc/lists'],
    ['law/doc', 'law/doc/category'],
    // Case matters (the UI's routes are caseSensitive).
    ['/music', '/Music'],
    ['OMS/order', 'oms/order'],
  ])('%s does not match %s', (pattern, path) => {
    expect(matchPattern(pattern, path)).toBeNull();
  });
});

describe('PUBLIC_ROUTES', () => {
  // Spec §2 "Public routes", literally: route, login needed ("not shown" for /cloud/api).
  const spec: [route: string, loginNeeded: string][] = [
    ['/', 'no'],
    ['/article/{id}', 'no'],
    ['/photo', 'no'],
    ['/doc/category', 'no'],
    ['/doc/search', 'no'],
    ['/doc/detail/{id}/{page?}', 'yes'],
    ['/doc/list/{categoryId?}', 'no'],
    ['/music', 'yes'],
    ['/movie', 'no'],
    ['/movie/{id}', 'yes'],
    ['/job', 'yes'],
    ['/ssl', 'yes'],
    ['/color', 'no'],
    ['/merchant_join', 'no'],
    ['/cloud/api', 'not shown'],
    ['/tool/google_code', 'no'],
  ];
  const toPattern = (route: string) => route.replace(/\{(\w+)(\??)\}/g, ':$1$2');

  it('holds exactly the spec’s public routes, in order, with their login rule', () => {
    expect(PUBLIC_ROUTES.map((r) => [r.pattern, r.requiresLogin])).toEqual(
      spec.map(([route, login]) => [toPattern(route), login === 'yes']),
    );
  });

  it('only /cloud/api has no screen', () => {
    expect(PUBLIC_ROUTES.filter((r) => !r.screen).map((r) => r.pattern)).toEqual(['/cloud/api']);
    expect(PUBLIC_ROUTES.every((r) => r.title.length > 0)).toBe(true);
  });

  it('findPublicRoute picks the right row', () => {
    expect(findPublicRoute('/movie')?.pattern).toBe('/movie');
    expect(findPublicRoute('/movie/3')?.pattern).toBe('/movie/:id');
    expect(findPublicRoute('/nope')).toBeUndefined();
  });
});

describe('ADMIN_ROUTES', () => {
  // Spec §2 "Admin routes", written out: each line of the spec, then the sub-routes it lists.
  // biome-ignore format: one spec line per line
  const specAdminRoutes = [
    // crm/supplier, crm/product, crm/chat
    'crm/supplier', 'crm/product', 'crm/chat',
    // bbs/topic, score, tag, review, node, article, wechat
    'bbs/topic', 'bbs/score', 'bbs/tag', 'bbs/review', 'bbs/node', 'bbs/article', 'bbs/wechat',
    // OMS/store, category, good, order, printer, balance, discount, coupon, exchangeCoupon, coupon_rule,
    // couponLog, score, income, invite, miniProgram/ads, miniProgram/module, chapter, card
    'OMS/store', 'OMS/category', 'OMS/good', 'OMS/order', 'OMS/printer', 'OMS/balance', 'OMS/discount',
    'OMS/coupon', 'OMS/exchangeCoupon', 'OMS/coupon_rule', 'OMS/couponLog', 'OMS/score', 'OMS/income',
    'OMS/invite', 'OMS/miniProgram/ads', 'OMS/miniProgram/module', 'OMS/chapter', 'OMS/card',
    // runner/runner, order, dispatch
    'runner/runner', 'runner/order', 'runner/dispatch',
    // sys-user
    'sys-user',
    // sys-config/platform and sys-config/old
    'sys-config/platform', 'sys-config/old',
    // sys-tools/monitor
    'sys-tools/monitor',
    // blog/photo, blog/article
    'blog/photo', 'blog/article',
    // law/work_tool, doc, doc/category, doc_search, doc_page, lawyer, third_service, invite
    'law/work_tool', 'law/doc', 'law/doc/category', 'law/doc_search', 'law/doc_page', 'law/lawyer',
    'law/third_service', 'law/invite',
    // monitor/job, ssl, ssl/deploy
    'monitor/job', 'monitor/ssl', 'monitor/ssl/deploy',
    // music/music
    'music/music',
    // wechat/merchant
    'wechat/merchant',
    // api-market/api, order, user-api-key
    'api-market/api', 'api-market/order', 'api-market/user-api-key',
    // cloud/cdn/domain, cloud/cdn/usage
    'cloud/cdn/domain', 'cloud/cdn/usage',
    // movie
    'movie',
  ];

  it('covers every admin sub-route of the spec', () => {
    const patterns = ADMIN_ROUTES.map((r) => r.pattern);
    expect(specAdminRoutes.filter((p) => !patterns.includes(p))).toEqual([]);
  });

  it('each spec sub-route is found by its /admin path', () => {
    for (const p of specAdminRoutes) expect(findAdminRoute(`/admin/${p}`)?.pattern).toBe(p);
  });

  it('has no duplicate patterns, and every route has a title and an area roles know', () => {
    const patterns = ADMIN_ROUTES.map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    const areas = new Set(permissionsOf(['admin']).map((p) => p.split(':')[0]));
    for (const r of ADMIN_ROUTES) {
      expect(r.title).not.toBe('');
      expect(areas).toContain(r.area);
    }
  });

  it('declares what each route shows: the server monitor, fourteen screens of their own, the rest registry lists', () => {
    const of = (screen: string) => ADMIN_ROUTES.filter((r) => r.screen === screen).map((r) => r.pattern);
    expect(of('serverMonitor')).toEqual(['sys-tools/monitor']);
    expect(of('custom').sort()).toEqual([
      'OMS/chapter',
      'OMS/income',
      'OMS/order',
      'api-market/api',
      'api-market/order',
      'api-market/user-api-key',
      'bbs/review',
      'bbs/wechat',
      'cloud/cdn/usage',
      'monitor/job',
      'monitor/ssl',
      'runner/dispatch',
      'sys-config/old',
      'wechat/merchant',
    ]);
    // A screen of its own is not also a registry list, but for those built over their definitions
    // that show the generic lists as well: the order board (its refunds), the monitoring boards
    // (jobs, runs, alerts; certificate jobs), the API market's, CDN usage (its rows, for the
    // generic export), the merchant review (the applications), the config versions' comparison
    // (the versions), the moderation queue and the chat bots as tabs beside their own view.
    const overLists = [
      'OMS/order',
      'monitor/job',
      'monitor/ssl',
      'api-market/api',
      'api-market/order',
      'api-market/user-api-key',
      'cloud/cdn/usage',
      'wechat/merchant',
      'sys-config/old',
      'bbs/review',
      'bbs/wechat',
    ];
    for (const pattern of of('custom').filter((p) => !overLists.includes(p)))
      expect(listingsOfRoute(pattern), pattern).toEqual([]);
    expect(listingsOfRoute('OMS/order').map((l) => l.def.name)).toEqual(['orders', 'orderRefunds']);
    expect(listingsOfRoute('monitor/ssl').map((l) => l.def.name)).toEqual(['sslJobs']);
    expect(listingsOfRoute('cloud/cdn/usage').map((l) => l.def.name)).toEqual(['cdnUsage']);
    expect(listingsOfRoute('wechat/merchant').map((l) => l.def.name)).toEqual(['merchantApplications']);
  });

  it('findAdminRoute tells nested routes apart and does not match the index', () => {
    expect(findAdminRoute('/admin/law/doc')?.pattern).toBe('law/doc');
    expect(findAdminRoute('/admin/law/doc/category')?.pattern).toBe('law/doc/category');
    expect(findAdminRoute('/admin/monitor/ssl/deploy')?.pattern).toBe('monitor/ssl/deploy');
    expect(findAdminRoute('/admin/OMS/order/')?.pattern).toBe('OMS/order');
    expect(findAdminRoute('/admin')).toBeUndefined();
    expect(findAdminRoute('/admin/nope')).toBeUndefined();
    expect(findAdminRoute('/admin/oms/order')).toBeUndefined();
    // Only below /admin/.
    expect(findAdminRoute('/crm/supplier')).toBeUndefined();
    expect(findAdminRoute('/adminOMS/order')).toBeUndefined();
    expect(findAdminRoute('/x/admin/OMS/order')).toBeUndefined();
  });
});

describe('ADMIN_MENU', () => {
  it('every menu leaf opens a route of ADMIN_ROUTES, under the same permission area', () => {
    for (const leaf of openableLeaves(ADMIN_MENU)) {
      const route = findAdminRoute(leaf.path ?? '');
      expect(route, `${leaf.title} ${leaf.path}`).toBeDefined();
      expect(route?.area, `${leaf.title} ${leaf.path}`).toBe(leaf.area);
    }
  });

  it('every admin route is reachable from the menu (none only by typing its URL)', () => {
    const inMenu = new Set(pathsOf(ADMIN_MENU));
    const missing = ADMIN_ROUTES.map((r) => `/admin/${r.pattern}`).filter((p) => !inMenu.has(p));
    expect(missing).toEqual([]);
  });

  it('menu ids are unique and every item has a Chinese title', () => {
    const all: MenuItem[] = [];
    const walk = (items: readonly MenuItem[]) => {
      for (const i of items) {
        all.push(i);
        if (i.children) walk(i.children);
      }
    };
    walk(ADMIN_MENU);
    const ids = all.map((i) => i.menuId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const i of all) expect(i.title).toMatch(/[\u4e00-\u9fff]/);
  });

  it('has the spec’s 24 top-level entries; kitchen hardware and private-domain ops are disabled', () => {
    expect(ADMIN_MENU).toHaveLength(24);
    expect(
      leaves(ADMIN_MENU)
        .filter((l) => l.disabled)
        .map((l) => l.title),
    ).toEqual(['后厨硬件与监控', '私域运营']);
    expect(leaves(ADMIN_MENU).filter((l) => l.disabled && l.path)).toEqual([]);
  });
});

describe('visibleMenu per role', () => {
  const ordering = ['oms', 'runner', 'crm', 'finance', 'marketing'];
  const visibleFor = (roles: string[]) => visibleMenu(permissionsOf(roles));

  it('admin sees every openable item', () => {
    expect(pathsOf(visibleFor(['admin']))).toEqual(pathsOf(ADMIN_MENU));
    expect(visibleFor(['admin'])).toHaveLength(ADMIN_MENU.length);
  });

  it('auditor (read-only everywhere) sees every item too', () => {
    expect(pathsOf(visibleFor(['auditor']))).toEqual(pathsOf(ADMIN_MENU));
  });

  it('editor sees content areas and no ordering items', () => {
    const menu = visibleFor(['editor']);
    const areas = new Set(openableLeaves(menu).map((l) => l.area));
    expect([...areas].sort()).toEqual(['bbs', 'blog', 'law', 'movie', 'music']);
    expect(openableLeaves(menu).filter((l) => ordering.includes(l.area ?? ''))).toEqual([]);
    // Groups left with nothing openable are hidden, disabled leftovers included.
    const titles = menu.map((i) => i.title);
    expect(titles).not.toContain('营销');
    expect(titles).not.toContain('设备/监控');
    expect(titles).toContain('博客');
  });

  it('operator sees ordering items only', () => {
    const areas = new Set(openableLeaves(visibleFor(['operator'])).map((l) => l.area));
    expect([...areas].sort()).toEqual([...ordering].sort());
  });

  it('a shown group keeps its disabled items', () => {
    const device = visibleFor(['operator']).find((i) => i.title === '设备/监控');
    expect(device?.children?.map((c) => [c.title, !!c.disabled])).toEqual([
      ['后厨硬件与监控', true],
      ['小票打印机', false],
    ]);
  });

  it('roles combine', () => {
    const both = openableLeaves(visibleFor(['editor', 'operator'])).length;
    expect(both).toBe(
      openableLeaves(visibleFor(['editor'])).length + openableLeaves(visibleFor(['operator'])).length,
    );
  });

  it.each([[[]], [['ghost']]])('a user with roles %j sees nothing openable', (roles) => {
    const menu = visibleFor(roles);
    expect(menu).toEqual([]);
    expect(hasOpenableItem(menu)).toBe(false);
  });

  it('every role in ROLES opens something', () => {
    for (const role of Object.keys(ROLES)) expect(hasOpenableItem(visibleFor([role])), role).toBe(true);
  });

  it('write permission alone does not show an item', () => {
    expect(visibleMenu(['blog:write'])).toEqual([]);
  });
});

describe('hasOpenableItem', () => {
  const open: MenuItem = { menuId: 'a', title: '甲', path: '/admin/a' };
  const off: MenuItem = { menuId: 'b', title: '乙', disabled: true };

  it.each([
    ['an empty menu', [], false],
    ['only disabled items', [off], false],
    ['a group of disabled items', [{ menuId: 'g', title: '组', children: [off] }], false],
    ['an empty group', [{ menuId: 'g', title: '组', children: [] }], false],
    ['an item without a path', [{ menuId: 'c', title: '丙' }], false],
    ['an openable item', [off, open], true],
    [
      'an openable item deep in groups',
      [{ menuId: 'g', title: '组', children: [{ menuId: 'h', title: '子', children: [open] }] }],
      true,
    ],
  ] as [string, MenuItem[], boolean][])('%s → %s', (_, menu, expected) => {
    expect(hasOpenableItem(menu)).toBe(expected);
  });
});

describe('siteAreaOf', () => {
  it.each([
    ['/', 'public'],
    ['/article/42', 'public'],
    ['/doc/detail/7/3', 'public'],
    ['/doc/list', 'public'],
    ['/music/', 'public'],
    ['/cloud/api', 'public'],
    ['/scan_login', 'login'],
    ['/scan_login/confirm/abc_DEF-123', 'login'],
    ['/admin/login', 'login'],
    ['/admin', 'admin'],
    ['/admin/', 'admin'],
    ['/admin/OMS/order', 'admin'],
    ['/admin/law/doc/category', 'admin'],
    ['/admin/sys-tools/monitor', 'admin'],
  ])('%s is %s', (path, area) => {
    expect(siteAreaOf(path)).toBe(area);
  });

  it.each([
    '/no-such-page',
    '/article',
    '/article/1/extra',
    '/doc/detail',
    '/cloud/api/x',
    '/scan_login/confirm',
    '/admin/no-such',
    '/admin/OMS',
    '/crm/supplier',
    '/Music',
    '/admin/oms/order',
    '/favicon.ico',
  ])('%s is the 404 screen', (path) => {
    expect(siteAreaOf(path)).toBeNull();
  });

  it('knows every pattern of the route table', () => {
    for (const r of PUBLIC_ROUTES)
      expect(siteAreaOf(r.pattern.replace(/:(\w+)\??/g, '1')), r.pattern).toBe('public');
    for (const r of ADMIN_ROUTES) expect(siteAreaOf(`/admin/${r.pattern}`), r.pattern).toBe('admin');
    expect(siteAreaOf(SCAN_LOGIN_CONFIRM_PATTERN.replace(':ticket', 't'))).toBe('login');
  });
});
