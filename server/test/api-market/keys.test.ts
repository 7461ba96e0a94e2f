/**
 * API keys: created for a user with the secret answered once and stored only as its hash, never
 * in a list or an audit entry; rotated (the old secret stops matching at once, the same id, name
 * and scopes), revoked, capped per user, and managed by a signed-in user for themselves only.
 */
import { apiKeyPrefix, isApiKeyShaped, MAX_API_KEYS_PER_USER } from '@wanxiang/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/domain/api-market/key-hash.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { createApi, customer, customers } from './helpers.js';

describe.each(DB_KINDS)('API keys on %s', (kind) => {
  let t: TestApp;
  let admin: Api;
  let apiId: number;
  let alice: { id: number; api: Api };
  let bob: { id: number; api: Api };
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await adminApi(t);
    apiId = await createApi(admin);
    [alice, bob] = (await customers(t, 2, 'keyuser')) as [typeof alice, typeof bob];
  });
  afterAll(async () => t?.close());

  const storedHashes = async (userId: number) =>
    (
      await t.app.db
        .selectFrom('api_keys' as never)
        .select(['secret_hash' as never])
        .where('user_id' as never, '=', userId as never)
        .execute()
    ).map((r) => (r as { secret_hash: string }).secret_hash);

  const auditText = async () =>
    JSON.stringify((await admin.get('/api/admin/auditLogs?resource=apiKeys&limit=100')).body.data.results);

  it('creates a key shown once, stored as its hash, absent from lists and the audit log', async () => {
    const res = await admin.post('/api/admin/apiKeys', {
      userId: alice.id,
      name: '生产环境',
      scopes: [apiId],
    });
    expect(res.status, res.text).toBe(200);
    const { id, key, prefix, secretHash, scopes, status } = res.body.data;
    expect(isApiKeyShaped(key)).toBe(true);
    expect(prefix).toBe(apiKeyPrefix(key));
    expect([secretHash, scopes, status]).toEqual(['******', [apiId], 'active']);
    expect(await storedHashes(alice.id)).toEqual([hashApiKey(key)]);

    const listed = await admin.get(`/api/admin/apiKeys?userId=${alice.id}`);
    expect(listed.text).not.toContain(key);
    expect((await admin.get(`/api/admin/apiKeys/${id}`)).text).not.toContain(key);
    const audit = await auditText();
    expect(audit).toContain('apiKeys.create');
    expect(audit).toContain(prefix);
    expect(audit).not.toContain(key);
    expect(audit).not.toContain(hashApiKey(key));
  });

  it('rotates: a new secret for the same id, name and scopes; the old hash is gone at once', async () => {
    const made = (await admin.post('/api/admin/apiKeys', { userId: bob.id, name: '测试', scopes: [apiId] }))
      .body.data;
    const rotated = await admin.post(`/api/admin/apiKeys/${made.id}/rotate`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.message).toBe('已轮换：新 Key 只显示这一次，旧 Key 已失效');
    const next = rotated.body.data;
    expect(isApiKeyShaped(next.key)).toBe(true);
    expect(next.key).not.toBe(made.key);
    expect([next.id, next.name, next.scopes, next.prefix]).toEqual([
      made.id,
      '测试',
      [apiId],
      apiKeyPrefix(next.key),
    ]);
    expect(await storedHashes(bob.id)).toEqual([hashApiKey(next.key)]);
    const audit = await auditText();
    expect(audit).toContain('apiKeys.rotate');
    expect(audit).not.toContain(next.key);
    expect(audit).not.toContain(made.key);

    const revoked = await admin.post(`/api/admin/apiKeys/${made.id}/revoke`);
    expect([revoked.status, revoked.body.data.status]).toEqual([200, 'revoked']);
    const again = await admin.post(`/api/admin/apiKeys/${made.id}/rotate`);
    expect([again.status, again.body.message]).toEqual([409, 'Key 已吊销，不能轮换']);
    expect(again.text).not.toMatch(/wx_[A-Za-z0-9]{40}/);
  });

  it('refuses bad input in Chinese, writing nothing', async () => {
    const before = (await storedHashes(alice.id)).length;
    const noName = await admin.post('/api/admin/apiKeys', { userId: alice.id, name: '  ' });
    expect(noName.status).toBe(422);
    expect(noName.body.data.fields.name).toMatch(/名称/);
    const nobody = await admin.post('/api/admin/apiKeys', { userId: 999_999, name: 'x' });
    expect([nobody.status, nobody.body.data.fields]).toEqual([422, { userId: '所选的用户不存在' }]);
    const noApi = await admin.post('/api/admin/apiKeys', {
      userId: alice.id,
      name: 'x',
      scopes: [apiId, 424_242],
    });
    expect([noApi.status, noApi.body.data.fields]).toEqual([422, { scopes: '所选的 API 不存在' }]);
    for (const body of [
      null,
      'text',
      { userId: 'abc', name: 5 },
      { userId: alice.id, name: 'x', scopes: 'all' },
    ]) {
      const res = await admin.post('/api/admin/apiKeys', body as never);
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
    }
    expect((await storedHashes(alice.id)).length).toBe(before);
  });

  it(`caps a user at ${MAX_API_KEYS_PER_USER} active keys; revoking one frees a place`, async () => {
    const carol = await customer(t, 'keycap');
    const ids: number[] = [];
    for (let i = 0; i < MAX_API_KEYS_PER_USER; i++) {
      const res = await admin.post('/api/admin/apiKeys', { userId: carol.id, name: `k${i}` });
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.data.id);
    }
    const over = await admin.post('/api/admin/apiKeys', { userId: carol.id, name: 'one more' });
    expect([over.status, over.body.message]).toEqual([
      409,
      `每个用户最多 ${MAX_API_KEYS_PER_USER} 个有效 Key，请先吊销不用的 Key`,
    ]);
    await admin.post(`/api/admin/apiKeys/${ids[0]}/revoke`);
    expect((await admin.post('/api/admin/apiKeys', { userId: carol.id, name: 'one more' })).status).toBe(200);
  });

  it('lets a signed-in user manage only their own keys', async () => {
    const [dave, erin] = (await customers(t, 2, 'selfkey')) as [typeof alice, typeof alice];
    // A body naming another user is ignored: the key is the signed-in user's.
    const mine = await dave.api.post('/api/me/apiKeys', { name: '我的 Key', userId: erin.id });
    expect(mine.status, mine.text).toBe(200);
    expect(isApiKeyShaped(mine.body.data.key)).toBe(true);
    expect(mine.body.data.userId).toBe(dave.id);
    const listed = await dave.api.get('/api/me/apiKeys');
    expect(listed.body.data.map((k: { id: number }) => k.id)).toEqual([mine.body.data.id]);
    expect(listed.text).not.toContain(mine.body.data.key);
    expect((await erin.api.get('/api/me/apiKeys')).body.data).toEqual([]);

    const foreign = await erin.api.post(`/api/me/apiKeys/${mine.body.data.id}/rotate`);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'API Key 不存在']);
    expect((await erin.api.post(`/api/me/apiKeys/${mine.body.data.id}/revoke`)).status).toBe(404);
    expect((await erin.api.post('/api/me/apiKeys/abc/revoke')).status).toBe(404);

    const rotated = await dave.api.post(`/api/me/apiKeys/${mine.body.data.id}/rotate`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(await storedHashes(dave.id)).toEqual([hashApiKey(rotated.body.data.key)]);
    const revoked = await dave.api.post(`/api/me/apiKeys/${mine.body.data.id}/revoke`);
    expect(revoked.body.data.status).toBe('revoked');

    // The admin routes need the apiMarket permission.
    expect((await dave.api.post('/api/admin/apiKeys', { userId: dave.id, name: 'x' })).status).toBe(403);
    expect((await dave.api.get('/api/admin/apiKeys')).status).toBe(403);
  });
});
