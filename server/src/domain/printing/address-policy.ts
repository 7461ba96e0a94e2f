/**
 * Whose outbound policy a printer's address is reached under (README.md "Who may print to the
 * LAN"): the user who last set its host or port (`addressSetById`), as that user's permissions
 * stand now. Printers live on the shop's LAN, so an address an administrator (monitor:write) set
 * may be printed to by anyone who may print — the operator at the counter, an automatic print on
 * acceptance — while an address set by a user without that permission reaches public addresses
 * only. Whoever presses the button never chooses where the bytes go; whoever chose it answers for it.
 */
import { permissionsOf } from '@wanxiang/core';
import { sql } from 'kysely';
import { invalidInput } from '../../http/envelope.js';
import {
  ADDRESS_KIND_LABEL,
  allows,
  literalAddressKind,
  type OutboundPolicy,
  type OutboundRefusedError,
  outboundPolicyOf,
} from '../../net/outbound.js';
import type { AnyDb, ResourceHooks } from '../../resources/extensions.js';
import { printerModel } from './jobs.js';

const PUBLIC_ONLY: OutboundPolicy = { mayReachPrivate: false };

/** The outbound policy of a user as their roles stand now; public only for nobody, a disabled or a deleted user. */
export async function policyOfUser(db: AnyDb, userId: number | null): Promise<OutboundPolicy> {
  if (userId === null) return PUBLIC_ONLY;
  const rows = (await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(sql.ref('roles.name').as('name'))
    .where(sql.ref('users.id'), '=', userId)
    .where(sql.ref('users.status'), '=', 'active')
    .where(sql.ref('users.deleted_at'), 'is', null)
    .execute()) as { name: string }[];
  return outboundPolicyOf(permissionsOf(rows.map((r) => r.name)));
}

/** The refusal of a printer's address, as the admin reads it. */
export function printerRefusal(error: OutboundRefusedError): string {
  const where = error.host === error.address ? error.address : `${error.host} → ${error.address}`;
  return (
    `打印机地址是${ADDRESS_KIND_LABEL[error.kind]}地址（${where}），但设置该地址的用户没有监控权限，` +
    '服务器不会连接；请由管理员在打印机设置中保存地址'
  );
}

/**
 * The printers' hook: whoever sets a printer's host or port becomes its `addressSetById` (and a
 * user with the monitoring permission who saves the printer with its address, changed or not),
 * and a user without that permission cannot set a loopback, private or link-local IP (a host
 * name is only known once resolved: it is checked when printing).
 */
export const printerHooks: ResourceHooks = {
  async afterWrite(ctx, id, values, before) {
    // Seeders and scripts (no user) say themselves who set the address.
    if (!ctx.user) return;
    const host = (values.host ?? before?.host) as string;
    const changed =
      before === null ||
      (values.host !== undefined && values.host !== before.host) ||
      (values.port !== undefined && values.port !== before.port);
    const given = values.host !== undefined || values.port !== undefined;
    if (!changed && !given) return;
    const policy = await policyOfUser(ctx.trx, ctx.user.id);
    // A form sent back with the address as it was: a user who may reach the LAN vouches for it
    // by saving it (an operator-set host name becomes printable); anyone else leaves the setter.
    if (!changed && !policy.mayReachPrivate) return;
    const kind = literalAddressKind(host);
    if (kind && !allows(policy, kind)) {
      throw invalidInput({
        host: `没有监控权限，不能把打印机地址设为${ADDRESS_KIND_LABEL[kind as keyof typeof ADDRESS_KIND_LABEL]}地址，请由管理员设置`,
      });
    }
    await ctx.trx
      .updateTable(printerModel().table)
      .set({ address_set_by_id: ctx.user.id })
      .where(sql.ref('id'), '=', id)
      .execute();
  },
};
