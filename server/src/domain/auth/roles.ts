/** Roles are defined in core (ROLES); the table mirrors them and is re-synced on every start. */
import { ROLES } from '@wanxiang/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function seedRoles(db: Kysely<Database>): Promise<void> {
  const rows = Object.entries(ROLES).map(([name, role]) => ({
    name,
    title: role.title,
    permissions: JSON.stringify(role.permissions),
  }));
  await db
    .insertInto('roles')
    .values(rows)
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        permissions: eb.ref('excluded.permissions'),
      })),
    )
    .execute();
}
