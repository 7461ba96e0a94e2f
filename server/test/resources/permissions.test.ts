/**
 * Every role × every resource × every method, against core's ROLES: a call the role's
 * permissions do not cover answers 403 没有权限执行此操作; a covered call never does (unless the
 * resource does not offer the method: 403 此资源不支持该操作).
 */
import {
  can,
  canCreate,
  canDelete,
  canUpdate,
  collectionActions,
  getResource,
  permissionsOf,
  RESOURCES,
  type ResourceDef,
  rowActions,
} from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineExtensions } from '../../src/domain/areas.js';
import { ADMIN_PASSWORD, DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from '../helpers/app.js';
import { tokenOf } from '../helpers/auth.js';
import { type Api, apiAs } from './helpers.js';

const ROLE_USERS = [
  { role: 'admin', username: 'admin', password: ADMIN_PASSWORD, roles: ['admin'] },
  { role: 'operator', username: 'operator', password: DEMO_PASSWORD, roles: ['operator'] },
  { role: 'editor', username: 'editor', password: DEMO_PASSWORD, roles: ['editor'] },
  { role: 'auditor', username: 'auditor', password: 'auditor-pass-1', roles: ['auditor'] },
  { role: 'no role', username: 'guest', password: DEMO_PASSWORD, roles: [] },
] as const;

const CREATED_BY_AREAS = engineExtensions();

// Ids no row has: an allowed mutation then answers 404 (or 422), never touching data.
const NO_ROW = 999_999;

interface Method {
  name: string;
  mode: 'read' | 'write';
  offered(def: ResourceDef): boolean;
  call(api: Api, def: ResourceDef): Promise<{ status: number; body: { message?: string } }>;
}

const METHODS: Method[] = [
  {
    name: 'list',
    mode: 'read',
    offered: () => true,
    call: (api, def) => api.get(`/api/admin/${def.name}?limit=1`),
  },
  {
    name: 'get',
    mode: 'read',
    offered: () => true,
    call: (api, def) => api.get(`/api/admin/${def.name}/${NO_ROW}`),
  },
  {
    name: 'export',
    mode: 'read',
    offered: () => true,
    call: (api, def) => api.get(`/api/admin/${def.name}/export?format=ndjson&id=${NO_ROW}`),
  },
  {
    name: 'create',
    mode: 'write',
    // Some resources have no generic form but an area creates them from a body of its own
    // (counter orders, API-market orders and keys): engineExtensions().creator.
    offered: (def) => canCreate(def) || CREATED_BY_AREAS.creator(def.name) !== undefined,
    call: (api, def) => api.post(`/api/admin/${def.name}`, {}),
  },
  {
    name: 'update',
    mode: 'write',
    offered: canUpdate,
    call: (api, def) => api.patch(`/api/admin/${def.name}/${NO_ROW}`, {}),
  },
  {
    name: 'delete',
    mode: 'write',
    offered: canDelete,
    call: (api, def) => api.del(`/api/admin/${def.name}/${NO_ROW}`),
  },
  {
    name: 'action',
    mode: 'write',
    offered: (def) => rowActions(def).length > 0,
    call: (api, def) =>
      api.post(`/api/admin/${def.name}/${NO_ROW}/${rowActions(def)[0]?.name ?? 'none'}`, {}),
  },
  {
    name: 'collection action',
    mode: 'write',
    offered: (def) => collectionActions(def).length > 0,
    call: (api, def) => api.post(`/api/admin/${def.name}/${collectionActions(def)[0]?.name ?? 'none'}`, {}),
  },
];

describe.each(DB_KINDS)('roles × resources × methods on %s', (kind) => {
  let t: TestApp;
  const apis = new Map<string, Api>();
  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.resources.insertRows(getResource('users'), [
      { username: 'auditor', password: 'auditor-pass-1', roles: ['auditor'], nickname: '审计' },
    ]);
    for (const u of ROLE_USERS) apis.set(u.role, apiAs(t.app, await tokenOf(t.app, u.username, u.password)));
  });
  afterAll(async () => t?.close());

  it.each(ROLE_USERS.map((u) => [u.role, u.roles] as const))(
    '%s gets exactly what core grants',
    async (role, roles) => {
      const api = apis.get(role) as Api;
      const permissions = permissionsOf(roles);
      const wrong: string[] = [];
      let calls = 0;
      for (const def of RESOURCES) {
        for (const method of METHODS) {
          if ((method.name === 'action' || method.name === 'collection action') && !method.offered(def))
            continue;
          const res = await method.call(api, def);
          calls++;
          const allowed = can(permissions, def.area, method.mode);
          const label = `${role} ${method.name} ${def.name} → ${res.status} ${res.body?.message ?? ''}`;
          if (!allowed) {
            if (res.status !== 403 || res.body.message !== '没有权限执行此操作') wrong.push(label);
          } else if (!method.offered(def)) {
            if (res.status !== 403 || res.body.message !== '此资源不支持该操作') wrong.push(label);
          } else if (![200, 404, 409, 422].includes(res.status)) {
            wrong.push(label);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(calls).toBeGreaterThan(RESOURCES.length * 6);
    },
  );

  it('answers 401 to every generic route without a token', async () => {
    for (const def of RESOURCES) {
      for (const [method, url] of [
        ['GET', `/api/admin/${def.name}`],
        ['GET', `/api/admin/${def.name}/export`],
        ['GET', `/api/admin/${def.name}/1`],
        ['POST', `/api/admin/${def.name}`],
        ['PATCH', `/api/admin/${def.name}/1`],
        ['DELETE', `/api/admin/${def.name}/1`],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    }
  });
});
