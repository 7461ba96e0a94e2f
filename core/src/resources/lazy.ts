/**
 * The registry's definition modules loaded one at a time, for the UI: a back-office list loads
 * the modules its route lists and those its fields point at, not all 67 resources
 * (QUALITY.md: ≤ 400 KB before the first list; every admin screen its own chunk). The server and
 * the CLI use registry.ts, which imports every module at once.
 *
 * RESOURCE_MODULES says where each resource is defined and which admin routes list it (its own
 * and its views'), so a route's modules are known before any is loaded. It is held equal to the
 * registry by core/test/resources/lazy.test.ts, which prints the lines to add for a new resource.
 */
import type { ResourceDef } from './define';
import { listingsIn, type RouteListing } from './listings';

export type DefinitionModuleName =
  | 'people'
  | 'oms'
  | 'finance'
  | 'marketing'
  | 'delivery'
  | 'crm'
  | 'community'
  | 'content'
  | 'documents'
  | 'media'
  | 'monitoring'
  | 'apiMarket'
  | 'cloud'
  | 'merchant';

/**
 * The definition modules, in registry order (registry.ts's DEFINITION_MODULES). Typed loosely on
 * purpose: a module's namespace type in the published declarations trips the declaration bundler.
 */
export const DEFINITION_LOADERS: Readonly<
  Record<DefinitionModuleName, () => Promise<Record<string, unknown>>>
> = {
  people: () => import('./definitions/people'),
  oms: () => import('./definitions/oms'),
  finance: () => import('./definitions/finance'),
  marketing: () => import('./definitions/marketing'),
  delivery: () => import('./definitions/delivery'),
  crm: () => import('./definitions/crm'),
  community: () => import('./definitions/community'),
  content: () => import('./definitions/content'),
  documents: () => import('./definitions/documents'),
  media: () => import('./definitions/media'),
  monitoring: () => import('./definitions/monitoring'),
  apiMarket: () => import('./definitions/api-market'),
  cloud: () => import('./definitions/cloud'),
  merchant: () => import('./definitions/merchant'),
};

/** Each resource: its definition module, then the admin routes that list it. */
export const RESOURCE_MODULES: Readonly<Record<string, readonly [DefinitionModuleName, ...string[]]>> = {
  users: ['people', 'sys-user'],
  memberLevels: ['people', 'member/level'],
  staff: ['people', 'staff'],
  platformConfig: ['people', 'sys-config/platform'],
  configVersions: ['people', 'sys-config/old'],
  thirdServices: ['people', 'law/third_service'],
  posters: ['people', 'poster'],
  auditLogs: ['people'],
  stores: ['oms', 'OMS/store'],
  goodsCategories: ['oms', 'OMS/category'],
  goods: ['oms', 'OMS/good'],
  orders: ['oms', 'OMS/order'],
  orderRefunds: ['oms', 'OMS/order'],
  orderHistory: ['oms'],
  printers: ['oms', 'OMS/printer'],
  printJobs: ['oms', 'OMS/printer'],
  balanceLedger: ['finance', 'OMS/balance'],
  cardProducts: ['finance', 'OMS/card'],
  prepaidCards: ['finance', 'OMS/card'],
  discounts: ['marketing', 'OMS/discount'],
  couponTemplates: ['marketing', 'OMS/coupon'],
  exchangeCodes: ['marketing', 'OMS/exchangeCoupon'],
  couponRules: ['marketing', 'OMS/coupon_rule'],
  userCoupons: ['marketing', 'OMS/couponLog'],
  pointsLedger: ['marketing', 'OMS/score'],
  referralCampaigns: ['marketing', 'OMS/invite'],
  referrals: ['marketing', 'OMS/invite'],
  banners: ['marketing', 'OMS/miniProgram/ads'],
  appModules: ['marketing', 'OMS/miniProgram/module'],
  runners: ['delivery', 'runner/runner'],
  deliveries: ['delivery', 'runner/order'],
  suppliers: ['crm', 'crm/supplier'],
  supplyProducts: ['crm', 'crm/product'],
  conversations: ['crm', 'crm/chat'],
  bbsNodes: ['community', 'bbs/node'],
  bbsTopics: ['community', 'bbs/topic', 'bbs/review'],
  bbsPosts: ['community', 'bbs/article', 'bbs/review'],
  bbsTags: ['community', 'bbs/tag'],
  bbsPoints: ['community', 'bbs/score'],
  chatBots: ['community', 'bbs/wechat'],
  sensitiveWords: ['community', 'bbs/review'],
  articles: ['content', 'blog/article'],
  photos: ['content', 'blog/photo'],
  docCategories: ['documents', 'law/doc/category'],
  docs: ['documents', 'law/doc', 'law/doc_review'],
  docPages: ['documents', 'law/doc_page'],
  docTags: ['documents', 'law/doc_tag'],
  docTagRules: ['documents', 'law/doc_tag_rule'],
  docSearchLogs: ['documents', 'law/doc_search'],
  lawyers: ['documents', 'law/lawyer'],
  workTools: ['documents', 'law/work_tool'],
  invites: ['documents', 'law/invite'],
  tracks: ['media', 'music/music'],
  movies: ['media', 'movie'],
  monitorJobs: ['monitoring', 'monitor/job'],
  monitorRuns: ['monitoring', 'monitor/job'],
  monitorAlerts: ['monitoring', 'monitor/job'],
  sslJobs: ['monitoring', 'monitor/ssl'],
  sslDeployments: ['monitoring', 'monitor/ssl/deploy'],
  marketApis: ['apiMarket', 'api-market/api'],
  apiPlans: ['apiMarket', 'api-market/api'],
  apiOrders: ['apiMarket', 'api-market/order'],
  apiQuotas: ['apiMarket', 'api-market/order'],
  apiKeys: ['apiMarket', 'api-market/user-api-key'],
  apiCalls: ['apiMarket', 'api-market/user-api-key'],
  cdnDomains: ['cloud', 'cloud/cdn/domain'],
  cdnUsage: ['cloud', 'cloud/cdn/usage'],
  merchantApplications: ['merchant', 'wechat/merchant'],
};

const ORDER = Object.keys(DEFINITION_LOADERS) as DefinitionModuleName[];

const isResource = (v: unknown): v is ResourceDef =>
  !!v && typeof v === 'object' && 'name' in v && 'fields' in v && 'area' in v;

/** A module's resources in the order it lists them (as registry.ts's resourcesOf). */
function resourcesOfModule(module: Record<string, unknown>): ResourceDef[] {
  const listed = module.resources;
  return Array.isArray(listed) ? listed.filter(isResource) : Object.values(module).filter(isResource);
}

/** The resources a definition's fields and action inputs point at. */
export function relationTargets(def: ResourceDef): string[] {
  const fields = [
    ...Object.values(def.fields),
    ...(def.actions ?? []).flatMap((action) => Object.values(action.input ?? {})),
  ];
  return fields.flatMap((field) =>
    field.type === 'relation' || field.type === 'relationList' ? [field.resource] : [],
  );
}

/**
 * Definitions loaded on demand and kept: `route()` gives a route's listings once the modules
 * they and their relations need are in; `find()` answers synchronously for what is loaded.
 */
export class DefinitionLoader {
  private readonly modules = new Map<DefinitionModuleName, ResourceDef[]>();
  private readonly pending = new Map<DefinitionModuleName, Promise<void>>();
  private readonly byName = new Map<string, ResourceDef>();
  private readonly routes = new Map<string, Promise<RouteListing[]>>();

  /** The resources loaded so far, in registry order. */
  loaded(): ResourceDef[] {
    return ORDER.flatMap((name) => this.modules.get(name) ?? []);
  }

  /** The names of the modules loaded so far, in registry order. */
  loadedModules(): DefinitionModuleName[] {
    return ORDER.filter((name) => this.modules.has(name));
  }

  find(name: string): ResourceDef | undefined {
    return this.byName.get(name);
  }

  /** Takes resources already in hand (a screen that imports the whole registry). */
  adopt(resources: readonly ResourceDef[]): void {
    for (const [moduleName, ...names] of groupByModule(resources.map((r) => r.name)))
      if (!this.modules.has(moduleName))
        this.add(
          moduleName,
          resources.filter((r) => names.includes(r.name)),
        );
  }

  /** Loads the named resources' modules and those their relations point at. */
  async resources(names: readonly string[]): Promise<void> {
    await this.load(modulesOf(names));
    const targets = names.flatMap((name) => {
      const def = this.byName.get(name);
      return def ? relationTargets(def) : [];
    });
    await this.load(modulesOf(targets));
  }

  /** A route's listings (registry.ts's listingsOfRoute) once everything they need is loaded. */
  route(route: string): Promise<RouteListing[]> {
    let listings = this.routes.get(route);
    if (!listings) {
      const names = Object.entries(RESOURCE_MODULES)
        .filter(([, [, ...routes]]) => routes.includes(route))
        .map(([name]) => name);
      listings = this.resources(names).then(() => listingsIn(this.loaded(), route));
      // A failed load (a dropped connection) is tried again next time rather than remembered.
      listings.catch(() => this.routes.delete(route));
      this.routes.set(route, listings);
    }
    return listings;
  }

  private async load(names: readonly DefinitionModuleName[]): Promise<void> {
    await Promise.all(
      names.map((name) => {
        if (this.modules.has(name)) return undefined;
        let pending = this.pending.get(name);
        if (!pending) {
          pending = DEFINITION_LOADERS[name]()
            .then((module) => this.add(name, resourcesOfModule(module)))
            .finally(() => this.pending.delete(name));
          this.pending.set(name, pending);
        }
        return pending;
      }),
    );
  }

  private add(name: DefinitionModuleName, resources: ResourceDef[]): void {
    this.modules.set(name, resources);
    for (const def of resources) this.byName.set(def.name, def);
  }
}

function modulesOf(names: readonly string[]): DefinitionModuleName[] {
  return [...new Set(names.flatMap((name) => RESOURCE_MODULES[name]?.[0] ?? []))];
}

function groupByModule(names: readonly string[]): [DefinitionModuleName, ...string[]][] {
  const groups = new Map<DefinitionModuleName, string[]>();
  for (const name of names) {
    const moduleName = RESOURCE_MODULES[name]?.[0];
    if (moduleName) groups.set(moduleName, [...(groups.get(moduleName) ?? []), name]);
  }
  return [...groups].map(([moduleName, members]) => [moduleName, ...members]);
}
