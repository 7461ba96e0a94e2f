/**
 * The users resource of the registry over the users table of 0001: the password is stored as its
 * argon2id hash, the roles in user_roles, and the actions reset the password, disable (revoking
 * every session: the user's next call answers errorCode 1) and enable.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/envelope.js';
import { changeRowAsDeclared, nextUpdatedAt } from '../../resources/actions.js';
import { VersionedKeeper } from '../../resources/counts.js';
import type {
  ActionHandlerSpec,
  AnyDb,
  EngineExtensions,
  ResourceHooks,
} from '../../resources/extensions.js';
import type { ResourceStorage } from '../../resources/storage.js';
import { MASK, type WireRow } from '../../resources/storage.js';
import { hashPassword } from '../auth/passwords.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { fireCouponRules } from '../marketing/index.js';

const typed = (db: AnyDb) => db as Kysely<Database>;

/**
 * A user's role names, kept by the versions of users (whose writes set the roles, `afterWrite`)
 * and roles (a role renamed or removed), at most 10 s for another process's writes
 * (resources/counts.ts): the users list and a user's detail read them for every user shown. What
 * is allowed is never decided from these (the session's own lookup does that).
 */
const keptRoles = new VersionedKeeper<string[]>(['users', 'roles'], 20_000);

/** Role names by user id, for the users on a page. */
export async function rolesOfUsers(db: AnyDb, userIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const now = Date.now();
  const version = keptRoles.version(db);
  const missing: number[] = [];
  for (const id of new Set(userIds)) {
    const kept = keptRoles.get(db, String(id), now);
    if (kept) out.set(id, [...kept.value]);
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  const rows = await typed(db)
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id as userId', 'roles.name as name'])
    .where('user_roles.user_id', 'in', missing)
    .orderBy('roles.name')
    .execute();
  const read = new Map<number, string[]>(missing.map((id) => [id, []]));
  for (const row of rows) read.get(Number(row.userId))?.push(row.name);
  for (const [id, names] of read) {
    keptRoles.set(db, String(id), names, version, now);
    if (names.length > 0) out.set(id, [...names]);
  }
  return out;
}

export async function setUserRoles(db: AnyDb, userId: number, roles: readonly string[]): Promise<void> {
  // The write's own answer lists the roles before the users' version moves.
  keptRoles.forget();
  const trx = typed(db);
  await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roles.length === 0) return;
  const rows = await trx
    .selectFrom('roles')
    .select('id')
    .where('name', 'in', [...roles])
    .execute();
  if (rows.length > 0) {
    await trx
      .insertInto('user_roles')
      .values(rows.map((r) => ({ user_id: userId, role_id: r.id })))
      .execute();
  }
}

/**
 * \`users\` predates the registry (its table comes from 0001): the password is kept as its argon2id
 * hash in \`password_hash\`, never shown, and the roles in \`user_roles\` (the hooks below).
 */
const storage: ResourceStorage = {
  fields: { password: { column: 'password_hash', hashed: true }, roles: { column: null } },
};

const hooks: ResourceHooks = {
  async prepare(values, { memo }) {
    if (typeof values.password !== 'string') return;
    // Bulk seeding gives many users one password: hash it once per call.
    const plain = values.password;
    let hashed = memo.get(plain) as Promise<string> | undefined;
    if (!hashed) {
      hashed = hashPassword(plain);
      memo.set(plain, hashed);
    }
    values.password = await hashed;
  },
  async afterWrite(ctx, id, values) {
    if (Array.isArray(values.roles)) await setUserRoles(ctx.trx, id, values.roles as string[]);
  },
  // A new account: the 新用户注册 coupon rules fire in its transaction (a rule that cannot issue
  // is skipped, never failing the account).
  async afterCreate(ctx, id) {
    await fireCouponRules(ctx.trx, id, { kind: 'register', at: ctx.now });
  },
  // What afterCreate may write: their cached list totals are dropped with the users'.
  touches: ['userCoupons', 'couponTemplates'],
  async loadVirtual(db, rows: WireRow[]) {
    const roles = await rolesOfUsers(
      db,
      rows.map((r) => r.id),
    );
    for (const row of rows) row.roles = roles.get(row.id) ?? [];
  },
  beforeDelete(ctx, id) {
    if (ctx.user?.id === id) throw conflict('不能删除自己的账号');
  },
  async afterDelete(ctx, id) {
    await revokeUserSessions(typed(ctx.trx), id, 'disabled', ctx.now);
  },
};

const resetPassword: ActionHandlerSpec = {
  // Hashing takes tens of milliseconds: done before the transaction opens.
  prepare: async ({ input }) => hashPassword(String(input.password)),
  async run(ctx) {
    await ctx.trx
      .updateTable('users')
      .set({
        password_hash: ctx.prepared as string,
        updated_at: nextUpdatedAt(ctx.now),
      })
      .where('id', '=', ctx.id)
      .execute();
    ctx.note('password', MASK, MASK);
    // Whoever had the old password is signed out; an administrator resetting their own keeps working.
    if (ctx.user?.id !== ctx.id) await revokeUserSessions(typed(ctx.trx), ctx.id, 'revoked', ctx.now);
    return undefined;
  },
};

export function register(engine: EngineExtensions): void {
  engine.registerStorage('users', storage);
  engine.registerResourceHooks('users', hooks);
  engine.registerActionHandler('users', 'resetPassword', resetPassword);
  engine.registerActionHandler('users', 'disable', async (ctx) => {
    if (ctx.user?.id === ctx.id) throw conflict('不能停用自己的账号');
    await changeRowAsDeclared(ctx, { status: 'disabled' });
    await revokeUserSessions(typed(ctx.trx), ctx.id, 'disabled', ctx.now);
    return undefined;
  });
  engine.registerActionHandler('users', 'enable', async (ctx) => {
    await changeRowAsDeclared(ctx, { status: 'active' });
    return undefined;
  });
}
