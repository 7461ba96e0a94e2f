/**
 * First start: the `admin` account (so there is always a way in) and, unless turned off,
 * demo accounts for each kind of user. Existing accounts are never touched, so restarting
 * with another WANXIANG_ADMIN_PASSWORD does not reset a changed password.
 *
 * No account gets a known password (issue 18: `operator123` & co. in the README meant every
 * install had three open doors): without WANXIANG_ADMIN_PASSWORD / WANXIANG_DEMO_PASSWORD each
 * password is generated and handed back once for start.ts to print.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { generatePassword } from './passwords.js';
import { createUser, type NewUserInput, usernameTaken } from './users.js';

export const DEMO_USERS = [
  { username: 'operator', nickname: '运营演示账号', roles: ['operator'] },
  { username: 'editor', nickname: '编辑演示账号', roles: ['editor'] },
  // No role: shows the "你没有任何权限" ejection of spec §5.
  { username: 'guest', nickname: '访客演示账号', roles: [] },
] as const;

export interface InitialUsersReport {
  adminCreated: boolean;
  /** Set only when the admin was created just now with a generated password: print it once. */
  generatedAdminPassword: string | null;
  demoUsersCreated: string[];
  /** The demo accounts created just now with generated passwords (no WANXIANG_DEMO_PASSWORD): print once. */
  generatedDemoPasswords: Array<{ username: string; password: string }>;
}

export async function ensureInitialUsers(
  db: Kysely<Database>,
  options: { adminPassword: string | null; demoUsers: boolean; demoPassword: string | null; now: number },
): Promise<InitialUsersReport> {
  const wanted: NewUserInput[] = [];
  const adminPassword = options.adminPassword ?? generatePassword();
  wanted.push({
    username: 'admin',
    password: adminPassword,
    nickname: '管理员',
    roles: ['admin'],
    now: options.now,
  });
  if (options.demoUsers) {
    for (const demo of DEMO_USERS) {
      // Each its own: one account's password tells nothing about another's.
      wanted.push({ ...demo, password: options.demoPassword ?? generatePassword(), now: options.now });
    }
  }

  // The argon2 hashes run in parallel on the thread pool.
  const created = await Promise.all(wanted.map((input) => createIfAbsent(db, input)));
  const adminCreated = created[0] === true;
  const createdDemos = wanted.filter((w, i) => created[i] && w.username !== 'admin');
  return {
    adminCreated,
    generatedAdminPassword: adminCreated && !options.adminPassword ? adminPassword : null,
    demoUsersCreated: createdDemos.map((w) => w.username),
    generatedDemoPasswords: options.demoPassword
      ? []
      : createdDemos.map(({ username, password }) => ({ username, password })),
  };
}

/** True when this call created the user; false when it existed (or another process won the race). */
async function createIfAbsent(db: Kysely<Database>, input: NewUserInput): Promise<boolean> {
  if (await usernameTaken(db, input.username)) return false;
  try {
    await createUser(db, input);
    return true;
  } catch (error) {
    // Two processes starting on one PostgreSQL database: the loser hits the unique username.
    if (await usernameTaken(db, input.username)) return false;
    throw error;
  }
}
