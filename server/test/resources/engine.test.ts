/**
 * The engine's own guarantees: no handler action without a handler (else no start), the
 * migrated schema matches the registry, and bulk inserts convert as the API does.
 */
import { defineResource, f, getResource, RESOURCES } from '@wanxiang/core';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineExtensions } from '../../src/domain/areas.js';
import {
  EngineExtensions,
  MissingHandlersError,
  missingActionHandlers,
  resourcesPlugin,
  tableSpecOf,
} from '../../src/resources/index.js';
import { diffSchema, introspectSchema } from '../../src/resources/schema-ops.js';
import { modelOf } from '../../src/resources/storage.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';
import { adminApi } from './helpers.js';

const widgets = defineResource({
  name: 'widgets',
  title: '部件',
  route: null,
  area: 'system',
  displayField: 'name',
  fields: { name: f.string('名称') },
  actions: [
    { name: 'frob', label: '摆弄', effect: { kind: 'handler' } },
    { name: 'twiddle', label: '拨弄', effect: { kind: 'handler' } },
  ],
});

describe('start-up checks', () => {
  it('every handler action of the registry has a handler', () => {
    expect(missingActionHandlers(RESOURCES, engineExtensions())).toEqual([]);
  });

  it('names the handler actions that have none', () => {
    const registry = new EngineExtensions();
    registry.registerActionHandler('widgets', 'twiddle', async () => undefined);
    expect(missingActionHandlers([widgets], registry)).toEqual(['widgets.frob']);
    expect(() => registry.registerActionHandler('widgets', 'twiddle', async () => undefined)).toThrow(
      /twice/,
    );
  });

  it('refuses to start while a handler action has no handler', async () => {
    const app = Fastify();
    // Stand-ins for the plugins the resource area depends on: the check runs before either is used.
    await app.register(fp(async () => undefined, { name: 'wanxiang-database' }));
    await app.register(fp(async () => undefined, { name: 'wanxiang-auth' }));
    const failure = await (async () => {
      await app.register(resourcesPlugin, { resources: [widgets], extensions: new EngineExtensions() });
      await app.ready();
    })().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MissingHandlersError);
    expect((failure as Error).message).toContain('widgets.frob, widgets.twiddle');
    await app.close().catch(() => undefined);
  });
});

describe.each(DB_KINDS)('the engine on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('has every table, column and index the registry needs (else: write the migration, see README)', async () => {
    const specs = RESOURCES.filter((def) => modelOf(def).hasTable).map(tableSpecOf);
    const diff = diffSchema(specs, await introspectSchema(t.app.db, t.app.dbDialect));
    expect(diff.problems).toEqual([]);
    expect(diff.ops).toEqual([]);
    // …and the start-up drift check stayed quiet.
    expect(t.logs.filter((l) => l.includes('lacks parts of the resource registry'))).toEqual([]);
  });

  it('bulk-inserts wire rows with the create conversions: hashed passwords, roles, JSON, times, explicit ids', async () => {
    const [id] = await t.app.resources.insertRows(getResource('users'), [
      {
        username: 'seeded',
        password: 'seeded-pass-1',
        roles: ['editor'],
        createdAt: '2024-06-01T02:03:04.005Z',
      },
    ]);
    expect((await signIn(t.app, 'seeded', 'seeded-pass-1')).json().data.authority).toEqual(['editor']);
    const api = await adminApi(t);
    const row = (await api.get(`/api/admin/users/${id}`)).body.data;
    expect(row).toMatchObject({
      username: 'seeded',
      roles: ['editor'],
      status: 'active',
      balanceFen: 0,
      createdAt: '2024-06-01T02:03:04.005Z',
    });

    await t.app.resources.insertRows(getResource('memberLevels'), [
      { id: 500, name: '黄金会员', pointsThreshold: 1000, discountRate: 95 },
    ]);
    // The next id comes after an explicit one on both databases.
    const next = await api.post('/api/admin/memberLevels', {
      name: '钻石会员',
      pointsThreshold: 5000,
      discountRate: 90,
    });
    expect(next.status, next.text).toBe(200);
    expect(next.body.data.id).toBeGreaterThan(500);
    expect((await api.get('/api/admin/memberLevels/500')).body.data).toMatchObject({
      name: '黄金会员',
      discountRate: 95,
    });
    expect(await t.app.resources.insertRows(getResource('memberLevels'), [])).toEqual([]);
  });
});
