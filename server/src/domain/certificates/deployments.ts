/**
 * Certificate deployments (sslDeployments, monitor/ssl/deploy): a certificate with its private
 * key, for a CDN domain. The key is sealed (secret-box.ts) in the write that stores it — never
 * committed in the clear — and no route returns it (the field is write-only: left out of rows,
 * exports and audit entries, which say `******`).
 *
 * `deploy` checks what a CDN would refuse, in Chinese, changing nothing when it refuses (409):
 * the certificate parses and is valid now, the key opens and matches it, every listed domain and
 * the CDN domain itself are covered by its names; then the deployment is `deployed` and the CDN
 * domain's HTTPS certificate points at it, in one transaction.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { formatDateTime, getResource } from '@wanxiang/core';
import { sql } from 'kysely';
import { conflict, invalidInput } from '../../http/envelope.js';
import type { ActionHandlerSpec, AnyDb, ResourceHooks } from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import { modelOf, toWireRow } from '../../resources/storage.js';
import { isSealed, open, seal } from './secret-box.js';

const deploymentModel = () => modelOf(getResource('sslDeployments'));
const cdnModel = () => modelOf(getResource('cdnDomains'));

const keys = new WeakMap<object, Buffer>();

/** The sealing key of the server running on `db` (its plugin sets it at start). */
export function setSealingKey(db: AnyDb, key: Buffer): void {
  keys.set(db, key);
}

function sealingKey(db: AnyDb): Buffer {
  const key = keys.get(db);
  // A script writing through the engine without a server: refuse rather than store the key in the clear.
  if (!key) throw new Error('no sealing key for this database: private keys are saved through the server');
  return key;
}

/** The certificates of a PEM text, leaf first; null when none parses. */
export function certificatesOf(pem: string): X509Certificate[] | null {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return null;
  try {
    return blocks.map((b) => new X509Certificate(b));
  } catch {
    return null;
  }
}

function privateKeyOf(pem: string): KeyObject | null {
  try {
    return createPrivateKey(pem);
  } catch {
    return null;
  }
}

export const deploymentHooks: ResourceHooks = {
  async prepare(values) {
    const fields: Record<string, string> = {};
    if (typeof values.certificate === 'string' && !certificatesOf(values.certificate))
      fields.certificate = '证书无法解析，请粘贴 PEM 格式的证书（-----BEGIN CERTIFICATE----- 开头）';
    if (typeof values.privateKey === 'string' && values.privateKey !== '' && !privateKeyOf(values.privateKey))
      fields.privateKey = '私钥无法解析，请粘贴未加密的 PEM 私钥（-----BEGIN PRIVATE KEY----- 开头）';
    if (Object.keys(fields).length > 0) throw invalidInput(fields);
  },
  // In the write's transaction: what was inserted in the clear is sealed before the commit.
  async afterWrite(ctx, id, values) {
    // Nothing to seal: no key given (a seeder's placeholder row is empty).
    if (typeof values.privateKey !== 'string' || values.privateKey === '') return;
    await ctx.trx
      .updateTable(deploymentModel().table)
      .set({ private_key: seal(sealingKey(ctx.db), values.privateKey) })
      .where(sql.ref('id'), '=', id)
      .execute();
  },
};

/** The stored key opened (rows seeded without a server may hold it in the clear, or none). */
async function storedKey(db: AnyDb, trx: AnyDb, id: number): Promise<string | null> {
  const row = (await trx
    .selectFrom(deploymentModel().table)
    .select(sql.ref('private_key').as('k'))
    .where(sql.ref('id'), '=', id)
    .executeTakeFirst()) as { k: string | null } | undefined;
  const stored = row?.k ?? '';
  if (stored === '') return null;
  return isSealed(stored) ? open(sealingKey(db), stored) : stored;
}

export const deploy: ActionHandlerSpec = {
  async run(ctx) {
    const row = ctx.row;
    const certs = certificatesOf(String(row.certificate ?? ''));
    const leaf = certs?.[0];
    if (!leaf) throw conflict('证书无法解析，请重新上传证书');
    const now = ctx.now;
    if (Date.parse(leaf.validTo) <= now)
      throw conflict(`证书已于 ${formatDateTime(leaf.validTo)} 过期，不能部署`);
    if (Date.parse(leaf.validFrom) > now)
      throw conflict(`证书尚未生效（${formatDateTime(leaf.validFrom)} 起），不能部署`);
    let keyPem: string | null;
    try {
      keyPem = await storedKey(ctx.db, ctx.trx, ctx.id);
    } catch {
      throw conflict('私钥无法解密（加密密钥已更换？），请重新上传私钥');
    }
    const key = keyPem ? privateKeyOf(keyPem) : null;
    if (!key) throw conflict('未保存私钥或私钥无法解析，请重新上传私钥');
    if (!leaf.checkPrivateKey(key)) throw conflict('私钥与证书不匹配');
    const cdn = await ctx.trx
      .selectFrom(cdnModel().table)
      .selectAll()
      .where(sql.ref('id'), '=', row.cdnDomainId as number)
      .executeTakeFirst();
    if (!cdn) throw conflict('要部署到的 CDN 域名不存在');
    const cdnDomain = String(toWireRow(cdnModel(), cdn).domain);
    const domains = [...new Set([...((row.domains as string[] | null) ?? []), cdnDomain])];
    const uncovered = domains.filter((d) => leaf.checkHost(d) === undefined);
    if (uncovered.length > 0) throw conflict(`证书不包含这些域名：${uncovered.join('、')}`);

    await changeRow(ctx.trx, cdnModel(), Number(cdn.id), now, { values: { httpsCertId: ctx.id } });
    ctx.touched('cdnDomains');
    const written = await changeRow(ctx.trx, deploymentModel(), ctx.id, now, {
      values: { status: 'deployed', deployedAt: now, message: `已部署到 ${cdnDomain}` },
    });
    return written ? toWireRow(deploymentModel(), written) : undefined;
  },
  message: () => '部署成功',
};
