/**
 * The registry as a whole: every resource of DOMAIN.md is defined once, every admin screen of
 * spec §2 lists something (except the custom screens), routes, areas and relations agree, and
 * no secret can leak through a filter, a sort or a search.
 */
import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROUTES,
  canCreate,
  canDelete,
  canUpdate,
  listingsOfRoute,
  PERMISSION_AREAS,
  RESOURCES,
  type ResourceDef,
  readableFields,
  registryProblems,
  resourcesOfRoute,
  searchableFields,
  writableFields,
} from '../../src/index';
import * as apiMarket from '../../src/resources/definitions/api-market';
import * as cloud from '../../src/resources/definitions/cloud';
import * as community from '../../src/resources/definitions/community';
import * as content from '../../src/resources/definitions/content';
import * as crm from '../../src/resources/definitions/crm';
import * as delivery from '../../src/resources/definitions/delivery';
import * as documents from '../../src/resources/definitions/documents';
import * as finance from '../../src/resources/definitions/finance';
import * as marketing from '../../src/resources/definitions/marketing';
import * as media from '../../src/resources/definitions/media';
import * as merchant from '../../src/resources/definitions/merchant';
import * as monitoring from '../../src/resources/definitions/monitoring';
import * as oms from '../../src/resources/definitions/oms';
import * as people from '../../src/resources/definitions/people';

/** Every resource DOMAIN.md names, written out so a missing one fails here by name. */
const DOMAIN_RESOURCES = [
  // People and platform
  'users',
  'memberLevels',
  'staff',
  'platformConfig',
  'configVersions',
  'thirdServices',
  'posters',
  'auditLogs',
  // Food-ordering operations
  'stores',
  'goodsCategories',
  'goods',
  'orders',
  'printers',
  'printJobs', // the printers screen's job log (receipt printers issue; DOMAIN.md lists it with printers)
  'balanceLedger',
  'discounts',
  'couponTemplates',
  'exchangeCodes',
  'couponRules',
  'userCoupons',
  'pointsLedger',
  'referralCampaigns',
  'referrals',
  'banners',
  'appModules',
  'cardProducts',
  'prepaidCards',
  'orderRefunds',
  'orderHistory',
  'runners',
  'deliveries',
  'suppliers',
  'supplyProducts',
  'conversations',
  // Community, content, documents
  'bbsNodes',
  'bbsTopics',
  'bbsPosts',
  'bbsTags',
  'bbsPoints',
  'chatBots',
  'sensitiveWords', // the filter's word list (issue 17; a tab of bbs/review)
  'articles',
  'photos',
  'docCategories',
  'docs',
  'docPages',
  'docTags',
  'docTagRules',
  'docSearchLogs',
  'lawyers',
  'workTools',
  'invites',
  'tracks',
  'movies',
  // Monitoring, API market, cloud, merchants
  'monitorJobs',
  'monitorRuns',
  'monitorAlerts', // the alert list of issue 16 (a flip or a certificate threshold), on monitor/job
  'sslJobs',
  'sslDeployments',
  'marketApis',
  'apiPlans',
  'apiOrders',
  'apiQuotas',
  'apiKeys',
  'apiCalls',
  'cdnDomains',
  'cdnUsage',
  'merchantApplications',
] as const;

/** Screens DOMAIN.md makes custom: they show figures or a board, not a resource list. */
const CUSTOM_SCREENS = ['OMS/income', 'runner/dispatch', 'sys-tools/monitor', 'OMS/chapter'];

const MODULES = {
  apiMarket,
  cloud,
  community,
  content,
  crm,
  delivery,
  documents,
  finance,
  marketing,
  media,
  merchant,
  monitoring,
  oms,
  people,
};

const byName = new Map(RESOURCES.map((r) => [r.name, r]));
const routeOf = new Map(ADMIN_ROUTES.map((r) => [r.pattern, r]));
const fieldsOf = (def: ResourceDef) => Object.entries(def.fields);

describe('the registry', () => {
  it('is consistent: registryProblems() finds nothing', () => {
    expect(registryProblems()).toEqual([]);
  });

  it('holds every resource DOMAIN.md names, and nothing else', () => {
    expect(RESOURCES.map((r) => r.name).sort()).toEqual([...DOMAIN_RESOURCES].sort());
    expect(RESOURCES).toHaveLength(68);
  });

  it('takes every ResourceDef a definition module exports, in the order the module lists them', () => {
    for (const [module, exports] of Object.entries(MODULES)) {
      const exported = Object.values(exports).filter(
        (v): v is ResourceDef => !!v && typeof v === 'object' && 'fields' in v && 'area' in v,
      );
      expect(exported.length, module).toBeGreaterThan(0);
      for (const def of exported) expect(byName.get(def.name), `${module}.${def.name}`).toBe(def);
      expect([...exports.resources].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
        exported.sort((a, b) => a.name.localeCompare(b.name)),
      );
    }
  });

  it('names resources in camelCase as API path segments', () => {
    for (const def of RESOURCES) expect(def.name).toMatch(/^[a-z][A-Za-z]*$/);
  });

  it('gives every resource, field and action a Chinese title or label', () => {
    const chinese = /[\u4e00-\u9fff]/;
    for (const def of RESOURCES) {
      expect(def.title, def.name).toMatch(/\S/);
      for (const [name, field] of fieldsOf(def)) {
        if (/^(Logo|IP|AppID|CNAME|API|Key|HTTP)/.test(field.label)) continue;
        expect(field.label, `${def.name}.${name}`).toMatch(chinese);
      }
      for (const action of def.actions ?? [])
        expect(action.label, `${def.name}.${action.name}`).toMatch(chinese);
    }
  });

  it('lists at least one resource on every admin screen except the custom ones', () => {
    const empty = ADMIN_ROUTES.map((r) => r.pattern).filter(
      (route) => !CUSTOM_SCREENS.includes(route) && listingsOfRoute(route).length === 0,
    );
    expect(empty).toEqual([]);
    for (const route of CUSTOM_SCREENS) expect(routeOf.has(route), route).toBe(true);
  });

  it('puts every resource on a route of ADMIN_ROUTES, or on none (orderHistory, auditLogs)', () => {
    for (const def of RESOURCES) if (def.route !== null) expect(routeOf.has(def.route), def.name).toBe(true);
    expect(RESOURCES.filter((r) => r.route === null).map((r) => r.name)).toEqual([
      'auditLogs',
      'orderHistory',
    ]);
  });

  it('keeps custom screens free of resources', () => {
    for (const route of CUSTOM_SCREENS) expect(listingsOfRoute(route)).toEqual([]);
  });

  it('uses the permission area of the screen that lists the resource, so the menu and the API agree', () => {
    for (const def of RESOURCES) {
      expect(PERMISSION_AREAS, def.name).toContain(def.area);
      if (def.route) expect(def.area, def.name).toBe(routeOf.get(def.route)?.area);
      for (const view of def.views ?? [])
        expect(def.area, `${def.name} view`).toBe(routeOf.get(view.route)?.area);
    }
  });

  it('lists the shared screens in the order the brief gives', () => {
    const names = (route: string) => resourcesOfRoute(route).map((r) => r.name);
    expect(names('OMS/invite')).toEqual(['referralCampaigns', 'referrals']);
    expect(names('OMS/card')).toEqual(['cardProducts', 'prepaidCards']);
    expect(names('OMS/order')).toEqual(['orders', 'orderRefunds']);
    expect(names('OMS/printer')).toEqual(['printers', 'printJobs']);
    expect(names('monitor/job')).toEqual(['monitorJobs', 'monitorRuns', 'monitorAlerts']);
    expect(names('api-market/api')).toEqual(['marketApis', 'apiPlans']);
    expect(names('api-market/order')).toEqual(['apiOrders', 'apiQuotas']);
    expect(names('api-market/user-api-key')).toEqual(['apiKeys', 'apiCalls']);
    expect(names('law/doc_tag')).toEqual(['docTags']);
    expect(names('law/doc_tag_rule')).toEqual(['docTagRules']);
  });

  it('models the review queues as views with fixed filters', () => {
    const summary = (route: string) =>
      listingsOfRoute(route).map((l) => ({ name: l.def.name, filters: l.filters, title: l.title }));
    expect(summary('law/doc_review')).toEqual([
      { name: 'docs', filters: { status: 'reviewing' }, title: '待审核文档' },
    ]);
    expect(summary('bbs/review')).toEqual([
      // The word list the queue's filter reads (its own resource, listed on this screen).
      { name: 'sensitiveWords', filters: {}, title: '敏感词' },
      { name: 'bbsTopics', filters: { status: 'pending' }, title: '待审核帖子' },
      { name: 'bbsPosts', filters: { status: 'pending' }, title: '待审核回帖' },
    ]);
    // A resource's own screen lists it unfiltered under its own title.
    expect(listingsOfRoute('law/doc')).toEqual([{ def: byName.get('docs'), filters: {}, title: '文档' }]);
    // The queues carry the moderation actions.
    expect(byName.get('docs')?.actions?.map((a) => a.name)).toEqual([
      'submit',
      'publish',
      'reject',
      'unpublish',
    ]);
    for (const name of ['bbsTopics', 'bbsPosts'])
      expect(byName.get(name)?.actions?.map((a) => a.name)).toEqual(['approve', 'reject']);
  });

  it('points every relation at a resource that exists and shows by an existing field', () => {
    for (const def of RESOURCES)
      for (const [name, field] of fieldsOf(def)) {
        if (field.type !== 'relation' && field.type !== 'relationList') continue;
        const target = byName.get(field.resource);
        expect(target, `${def.name}.${name} → ${field.resource}`).toBeDefined();
        const display = target?.displayField ?? '';
        expect(display === 'id' || display in (target?.fields ?? {}), `${field.resource}.${display}`).toBe(
          true,
        );
      }
  });

  it('never lets a write-only field be filtered, sorted, searched or returned', () => {
    for (const def of RESOURCES) {
      const readable = new Set(readableFields(def).map(([n]) => n));
      for (const [name, field] of fieldsOf(def)) {
        if (!field.writeOnly) continue;
        expect(field.filterable || field.sortable || field.searchable, `${def.name}.${name}`).toBeFalsy();
        expect(readable.has(name), `${def.name}.${name}`).toBe(false);
        expect(searchableFields(def)).not.toContain(name);
      }
    }
  });

  it('keeps secrets write-only', () => {
    const writeOnly = RESOURCES.flatMap((def) =>
      fieldsOf(def)
        .filter(([, field]) => field.writeOnly)
        .map(([name]) => `${def.name}.${name}`),
    ).sort();
    expect(writeOnly).toEqual(
      [
        'apiKeys.secretHash',
        'merchantApplications.accountNumber',
        'merchantApplications.idNumber',
        'sslDeployments.privateKey',
        'thirdServices.secret',
        'users.password',
      ].sort(),
    );
    // The key hash is stored only: never accepted either.
    expect(writableFields(byName.get('apiKeys') as ResourceDef).map(([n]) => n)).not.toContain('secretHash');
  });

  it('makes logs and ledgers read-only and the rest editable', () => {
    const readOnly = RESOURCES.filter((r) => r.readOnly)
      .map((r) => r.name)
      .sort();
    expect(readOnly).toEqual(
      [
        'apiCalls',
        'auditLogs',
        'balanceLedger',
        'bbsPoints',
        'cdnUsage',
        'configVersions',
        'deliveries',
        'docSearchLogs',
        'monitorRuns',
        'monitorAlerts',
        'orderHistory',
        'pointsLedger',
        'printJobs',
        'referrals',
        'userCoupons',
      ].sort(),
    );
    // Refund records are decided by actions (approve, reject) but never edited by a form.
    const refunds = RESOURCES.find((r) => r.name === 'orderRefunds');
    expect(refunds && writableFields(refunds)).toEqual([]);
    expect(refunds && (canCreate(refunds) || canDelete(refunds))).toBe(false);
    for (const def of RESOURCES.filter((r) => r.readOnly)) {
      expect(canCreate(def) || canUpdate(def) || canDelete(def), def.name).toBe(false);
      // The form has nothing to offer: every field is server-written.
      expect(writableFields(def), def.name).toEqual([]);
    }
    for (const name of ['exchangeCodes', 'prepaidCards', 'apiOrders', 'orders']) {
      const def = byName.get(name) as ResourceDef;
      expect([canCreate(def), canDelete(def)], name).toEqual([false, false]);
    }
    for (const name of [
      'stores',
      'goods',
      'articles',
      'docs',
      'lawyers',
      'monitorJobs',
      'merchantApplications',
    ])
      expect(canCreate(byName.get(name) as ResourceDef), name).toBe(true);
  });

  it('soft-deletes what history refers to', () => {
    for (const name of [
      'users',
      'stores',
      'goods',
      'printers',
      'runners',
      'suppliers',
      'articles',
      'docs',
      'bbsTopics',
      'bbsPosts',
      'cdnDomains',
      'monitorJobs',
    ])
      expect(byName.get(name)?.softDelete, name).toBe(true);
  });

  it('declares transitions only over states the enum has, and handlers only where a server handler is simple', () => {
    const handlers = RESOURCES.flatMap((def) =>
      (def.actions ?? []).filter((a) => a.effect.kind === 'handler').map((a) => `${def.name}.${a.name}`),
    ).sort();
    expect(handlers).toEqual(
      [
        'apiKeys.rotate',
        'apiOrders.refund',
        'balanceLedger.adjust',
        // Moderation moves the author's points (core's moderate(), server/src/domain/community).
        'bbsPosts.approve',
        'bbsPosts.reject',
        'bbsTopics.approve',
        'bbsTopics.reject',
        'configVersions.restore',
        'couponTemplates.issue',
        'exchangeCodes.generate',
        'exchangeCodes.voidBatch',
        'merchantApplications.reject',
        'monitorJobs.runNow',
        'pointsLedger.adjust',
        'posters.generate',
        'thirdServices.test',
        // The order machine's moves, carried out by the orders area (core/src/orders/moves.ts).
        'orders.pay',
        'orders.accept',
        'orders.reject',
        'orders.prepare',
        'orders.ready',
        'orders.dispatch',
        'orders.deliver',
        'orders.complete',
        'orders.pickedUp',
        'orders.cancel',
        'orders.refund',
        'deliveries.assign',
        'cardProducts.sell',
        'prepaidCards.recharge',
        'orderRefunds.approve',
        'orderRefunds.reject',
        'orders.print',
        'printers.testPrint',
        'sensitiveWords.importWords',
        'sslDeployments.deploy',
        'sslJobs.checkNow',
        'supplyProducts.purchaseIn',
        'users.disable',
        'users.enable',
        'users.resetPassword',
      ].sort(),
    );
  });

  it('follows the WeChat Pay review machine for merchant applications', () => {
    const def = byName.get('merchantApplications') as ResourceDef;
    const steps = Object.fromEntries(
      (def.actions ?? []).map((a) => [
        a.name,
        a.effect.kind === 'transition' ? `${a.effect.from.join('|')} → ${a.effect.to}` : 'handler',
      ]),
    );
    expect(steps).toEqual({
      submit: 'editing|rejected → auditing',
      reject: 'handler',
      approve: 'auditing → to_be_confirmed',
      confirm: 'to_be_confirmed → to_be_signed',
      sign: 'to_be_signed → signing',
      finish: 'signing → finished',
      cancel: 'editing|auditing|rejected|to_be_confirmed|to_be_signed|signing → canceled',
    });
  });

  it('reports a view whose filter the list query would refuse', () => {
    const docs = byName.get('docs') as ResourceDef;
    const broken: ResourceDef = {
      ...docs,
      views: [
        { route: 'law/doc_review', filters: { status: 'nope' } },
        { route: 'law/doc', filters: { content: 'x' } },
      ],
    };
    const problems = registryProblems([...RESOURCES.filter((r) => r !== docs), broken]);
    expect(problems).toEqual([
      'docs: view law/doc_review filter status: 状态必须是其中一个[draft,reviewing,published]',
      'docs: view on its own route law/doc',
      'docs: view law/doc filter content: 不支持的筛选条件 content',
    ]);
  });

  it('requires monitoring intervals of at least 20 seconds', () => {
    const jobs = byName.get('monitorJobs') as ResourceDef;
    expect(jobs.fields.intervalS).toMatchObject({ min: 20, required: true });
    expect(jobs.fields.retryIntervalS).toMatchObject({ min: 20 });
  });
});
