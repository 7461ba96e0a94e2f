/**
 * Certificate deployments: the private key sealed at rest (AES-256-GCM, key from configuration
 * or DATA_DIR/secret.key), never returned — not by the list, the row, the export or the audit
 * log — and `deploy` with each of its refusals, then the CDN domain pointing at the certificate.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretKey, open, seal } from '../../src/domain/certificates/secret-box.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';
import { type Issued, makeCa, makeLeaf } from './pki.js';

/** The body of a PEM key without its armour: what must never appear in an answer. */
const keyBody = (pem: string) => pem.split('\n').slice(1, -2).join('');

describe('secret box', () => {
  it('seals with a fresh IV and opens only with its key', async () => {
    const key = Buffer.alloc(32, 7);
    const a = seal(key, 'secret');
    expect(a).toMatch(/^v1:/);
    expect(seal(key, 'secret')).not.toBe(a);
    expect(open(key, a)).toBe('secret');
    expect(() => open(Buffer.alloc(32, 8), a)).toThrow(/does not open/);
    await expect(loadSecretKey('abc', '/nonexistent')).rejects.toThrow(/64 hex digits/);
    expect(await loadSecretKey('11'.repeat(32), '/nonexistent')).toEqual(Buffer.alloc(32, 0x11));
  });
});

describe.each(DB_KINDS)('certificate deployments on %s', (kind) => {
  let t: TestApp;
  let api: Api;
  let root: Issued;
  let leaf: Issued;
  let cdnId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.current = Date.now();
    api = await adminApi(t);
    root = await makeCa('部署测试根 CA');
    leaf = await makeLeaf({ issuer: root, names: ['cdn.example.com', 'img.example.com'] });
    const cdn = await api.post('/api/admin/cdnDomains', {
      domain: 'cdn.example.com',
      origin: 'origin.example.com',
    });
    expect(cdn.status, cdn.text).toBe(200);
    cdnId = cdn.body.data.id;
  });
  afterAll(async () => t?.close());

  const create = (over: Record<string, unknown> = {}) =>
    api.post('/api/admin/sslDeployments', {
      name: '静态资源证书',
      certificate: `${leaf.pem}\n${root.pem}`,
      privateKey: leaf.keyPem,
      domains: ['img.example.com'],
      cdnDomainId: cdnId,
      ...over,
    });

  it('the key is sealed at rest under DATA_DIR/secret.key and never returned', async () => {
    const res = await create();
    expect(res.status, res.text).toBe(200);
    const id = res.body.data.id;
    const secret = keyBody(leaf.keyPem);
    expect(res.text).not.toContain(secret);
    // The form learns only that a key is set.
    expect(res.body.data.privateKey).toBe('******');

    const stored = (await t.app.db
      .selectFrom('ssl_deployments' as never)
      .select('private_key' as never)
      .where('id' as never, '=', id as never)
      .executeTakeFirstOrThrow()) as { private_key: string };
    expect(stored.private_key).toMatch(/^v1:/);
    expect(stored.private_key).not.toContain(secret);
    const keyFile = path.join(t.db.dataDir, 'secret.key');
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
    expect(open(key, stored.private_key)).toBe(leaf.keyPem);

    for (const url of [
      `/api/admin/sslDeployments/${id}`,
      '/api/admin/sslDeployments?limit=100',
      '/api/admin/sslDeployments/export?format=csv',
      '/api/admin/sslDeployments/export?format=ndjson',
      `/api/admin/auditLogs?resource=sslDeployments&recordId=${id}`,
    ]) {
      const answer = await api.get(url);
      expect(answer.status, `${url} ${answer.text}`).toBe(200);
      expect(answer.text, url).not.toContain(secret);
      expect(answer.text, url).not.toContain('BEGIN PRIVATE KEY');
    }
  });

  it('refuses what cannot be stored: 422 per field, nothing saved', async () => {
    const res = await create({ certificate: 'nope', privateKey: 'nope' });
    expect(res.status).toBe(422);
    expect(res.body.data.fields).toEqual({
      certificate: '证书无法解析，请粘贴 PEM 格式的证书（-----BEGIN CERTIFICATE----- 开头）',
      privateKey: '私钥无法解析，请粘贴未加密的 PEM 私钥（-----BEGIN PRIVATE KEY----- 开头）',
    });
  });

  it('deploy: refusals in Chinese change nothing; then deployed and the CDN domain points at it', async () => {
    const other = await makeLeaf({ issuer: root, names: ['cdn.example.com'] });
    const mismatched = (await create({ name: '错配私钥', privateKey: other.keyPem })).body.data.id;
    const refused = await api.post(`/api/admin/sslDeployments/${mismatched}/deploy`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('私钥与证书不匹配');
    expect((await api.get(`/api/admin/sslDeployments/${mismatched}`)).body.data.status).toBe('pending');

    const uncovered = (await create({ name: '缺域名', domains: ['img.example.com', 'shop.example.com'] }))
      .body.data.id;
    const missing = await api.post(`/api/admin/sslDeployments/${uncovered}/deploy`);
    expect(missing.status).toBe(409);
    expect(missing.body.message).toBe('证书不包含这些域名：shop.example.com');

    const expired = await makeLeaf({ issuer: root, names: ['cdn.example.com'], fromDays: -90, toDays: -1 });
    const old = (
      await create({ name: '过期', certificate: expired.pem, privateKey: expired.keyPem, domains: [] })
    ).body.data.id;
    const late = await api.post(`/api/admin/sslDeployments/${old}/deploy`);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/^证书已于 .+ 过期，不能部署$/);

    const good = (await create({ name: '正确' })).body.data.id;
    const done = await api.post(`/api/admin/sslDeployments/${good}/deploy`);
    expect(done.status, done.text).toBe(200);
    expect(done.body.message).toBe('部署成功');
    expect(done.body.data).toMatchObject({
      status: 'deployed',
      message: '已部署到 cdn.example.com',
      deployedAt: new Date(t.clock.now()).toISOString(),
    });
    expect(done.text).not.toContain(keyBody(leaf.keyPem));
    expect((await api.get(`/api/admin/cdnDomains/${cdnId}`)).body.data.httpsCertId).toBe(good);
  });
});
