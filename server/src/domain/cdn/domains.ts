/**
 * What the registry cannot say about cdnDomains: the CNAME is generated on create (core's
 * `cnameOf` under the configured base, `CDN_CNAME_BASE`), and an HTTPS certificate picked from
 * monitor/ssl/deploy must cover the domain — by the same rule the deploy action applies
 * (node's `X509Certificate.checkHost`, wildcards as browsers match them).
 */
import { cnameOf, DEFAULT_CDN_CNAME_BASE, getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { invalidInput } from '../../http/envelope.js';
import type { AnyDb, ResourceHooks } from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import { modelOf } from '../../resources/storage.js';
import { certificatesOf } from '../certificates/deployments.js';

const bases = new WeakMap<object, string>();

/** The CNAME base of the server running on `db` (its plugin sets it at start). */
export function setCnameBase(db: AnyDb, base: string | undefined): void {
  if (base) bases.set(db, base);
}

export const cdnDomainHooks: ResourceHooks = {
  async afterWrite(ctx, id, values, before) {
    const model = modelOf(getResource('cdnDomains'));
    if (before === null) {
      const base = bases.get(ctx.db) ?? DEFAULT_CDN_CNAME_BASE;
      await changeRow(ctx.trx, model, id, ctx.now, {
        values: { cname: cnameOf(String(values.domain), base) },
      });
    }
    const certId = values.httpsCertId;
    if (certId === undefined || certId === null || certId === before?.httpsCertId) return;
    const deployment = (await ctx.trx
      .selectFrom(modelOf(getResource('sslDeployments')).table)
      .select(['certificate', 'name'])
      .where(sql.ref('id'), '=', Number(certId))
      .executeTakeFirst()) as { certificate: string | null; name: string } | undefined;
    const domain = String(values.domain ?? before?.domain ?? '');
    const leaf = certificatesOf(String(deployment?.certificate ?? ''))?.[0];
    if (!leaf) throw invalidInput({ httpsCertId: '所选证书无法解析，请在证书部署中重新上传' });
    if (leaf.checkHost(domain) === undefined)
      throw invalidInput({ httpsCertId: `所选证书不包含域名 ${domain}，请选择覆盖该域名的证书` });
    if (Date.parse(leaf.validTo) <= ctx.now)
      throw invalidInput({ httpsCertId: '所选证书已过期，请选择有效的证书' });
  },
};
