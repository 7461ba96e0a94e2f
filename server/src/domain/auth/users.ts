/** Reading and creating users with their roles. */
import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema.js';
import { hashPassword } from './passwords.js';

/** A live account by username (a deleted account can no longer sign in). */
export function findUserByUsername(db: Kysely<Database>, username: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Whether the username is taken, by a live or a deleted account (usernames are never reused). */
export async function usernameTaken(db: Kysely<Database>, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export async function roleNamesOf(db: Kysely<Database>, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.name')
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.name')
    .execute();
  return rows.map((r) => r.name);
}

export interface NewUserInput {
  username: string;
  password: string;
  nickname?: string | null;
  roles?: readonly string[];
  now: number;
}

/** Creates a user with the given roles (role names must exist) in one transaction. */
export async function createUser(db: Kysely<Database>, input: NewUserInput): Promise<number> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('users')
      .values({
        username: input.username,
        password_hash: passwordHash,
        nickname: input.nickname ?? null,
        avatar: null,
        phone: null,
        email: null,
        status: 'active',
        created_at: input.now,
        updated_at: input.now,
        last_login_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const roles = input.roles ?? [];
    if (roles.length > 0) {
      const roleRows = await trx
        .selectFrom('roles')
        .select(['id', 'name'])
        .where('name', 'in', roles)
        .execute();
      if (roleRows.length !== roles.length) throw new Error(`unknown role in ${roles.join(', ')}`);
      await trx
        .insertInto('user_roles')
        .values(roleRows.map((r) => ({ user_id: id, role_id: r.id })))
        .execute();
    }
    return id;
  });
}
