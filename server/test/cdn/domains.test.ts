/**
 * cdnDomains on each database: the CNAME is generated on create from the configured base
 * (wildcards named), and an HTTPS certificate from monitor/ssl/deploy is accepted only when it
 * covers the domain and has not expired (422 with the reason, nothing changed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, makeLeaf } from '../certificates/pki.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app.js';
import { type Api, adminApi } from '../resources/helpers.js';

describe.each(DB_KINDS)('CDN domains on %s', (kind) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { cdn: { cnameBase: 'cdn.wanxiang.cn' } } });
    // Real time: the certificates' validity is judged by it.
    t.clock.current = Date.now();
    api = await adminApi(t);
  });
  afterAll(async () => t?.close());

  it('CNAME on create: dots to dashes under the base; a wildcard is named', async () => {
    const a = await api.post('/api/admin/cdnDomains', {
      domain: 'img.example.com',
      origin: 'origin.example.com',
    });
    expect(a.body.data.cname).toBe('img-example-com.cdn.wanxiang.cn');
    const w = await api.post('/api/admin/cdnDomains', {
      domain: '*.shop.example.com',
      origin: 'origin.example.com',
    });
    expect(w.body.data.cname).toBe('wildcard-shop-example-com.cdn.wanxiang.cn');
    // Read-only: a client cannot set its own.
    const own = await api.post('/api/admin/cdnDomains', {
      domain: 'own.example.com',
      origin: 'origin.example.com',
      cname: 'evil.example.net',
    });
    expect(own.body.data?.cname ?? 'refused').not.toBe('evil.example.net');
  });

  it('httpsCertId: a certificate covering the domain is taken; one that does not is refused in Chinese', async () => {
    const root = await makeCa('CDN 测试根 CA');
    const covering = await makeLeaf({ issuer: root, names: ['*.example.com'] });
    const other = await makeLeaf({ issuer: root, names: ['www.example.org'] });
    const cdn = await api.post('/api/admin/cdnDomains', {
      domain: 'static.example.com',
      origin: 'origin.example.com',
    });
    const id = cdn.body.data.id as number;
    const deployment = async (name: string, leaf: { pem: string; keyPem: string }, domains: string[]) =>
      (
        await api.post('/api/admin/sslDeployments', {
          name,
          certificate: `${leaf.pem}\n${root.pem}`,
          privateKey: leaf.keyPem,
          domains,
          cdnDomainId: id,
        })
      ).body.data.id as number;
    const good = await deployment('通配符证书', covering, ['static.example.com']);
    const bad = await deployment('别的证书', other, ['www.example.org']);

    const refused = await api.patch(`/api/admin/cdnDomains/${id}`, { httpsCertId: bad });
    expect(refused.status).toBe(422);
    expect(refused.body.data.fields.httpsCertId).toBe(
      '所选证书不包含域名 static.example.com，请选择覆盖该域名的证书',
    );
    expect((await api.get(`/api/admin/cdnDomains/${id}`)).body.data.httpsCertId).toBeNull();

    const taken = await api.patch(`/api/admin/cdnDomains/${id}`, { httpsCertId: good });
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body.data.httpsCertId).toBe(good);
  });
});
