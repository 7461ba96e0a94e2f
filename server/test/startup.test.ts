import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/db/migrate.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  DB_KINDS,
  DEMO_PASSWORD,
  startTestApp,
  type TestApp,
  type TestDatabase,
} from './helpers/app.js';
import { signIn } from './helpers/auth.js';

describe.each(DB_KINDS)('first start on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  async function start(db: TestDatabase, config: Parameters<typeof startTestApp>[1] = {}): Promise<TestApp> {
    const t = await startTestApp(kind, { ...config, db });
    return t;
  }

  it('creates admin with WANXIANG_ADMIN_PASSWORD and the demo users; guest has no role', async () => {
    // Empty: this start migrates from nothing, as a first install does.
    const db = await createTestDatabase(kind, { empty: true });
    cleanup.push(db.drop);
    const t = await start(db);
    cleanup.push(() => t.app.close());
    expect(t.app.startup).toEqual({
      adminCreated: true,
      generatedAdminPassword: null,
      demoUsersCreated: ['operator', 'editor', 'guest'],
      generatedDemoPasswords: [],
    });
    expect((await signIn(t.app, 'admin', ADMIN_PASSWORD)).json().data.authority).toEqual(['admin']);
    expect((await signIn(t.app, 'operator', DEMO_PASSWORD)).json().data.authority).toEqual(['operator']);
    expect((await signIn(t.app, 'editor', DEMO_PASSWORD)).json().data.authority).toEqual(['editor']);
    expect((await signIn(t.app, 'guest', DEMO_PASSWORD)).json().data.authority).toEqual([]);
    const roles = await t.app.db
      .selectFrom('roles')
      .select(['name', 'title', 'permissions'])
      .orderBy('name')
      .execute();
    expect(roles.map((r) => r.name)).toEqual(['admin', 'auditor', 'editor', 'operator']);
    expect(JSON.parse(roles.find((r) => r.name === 'auditor')?.permissions ?? '[]')).toContain('system:read');
  });

  it('is idempotent: a second start on the same database migrates nothing and creates no one', async () => {
    const db = await createTestDatabase(kind);
    cleanup.push(db.drop);
    const first = await start(db);
    const usersBefore = await first.app.db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash'])
      .execute();
    // Roles are re-synced from core on every start: a drifted row is put back.
    await first.app.db.updateTable('roles').set({ title: 'stale' }).where('name', '=', 'admin').execute();
    await first.app.close();

    const second = await start(db, { config: { adminPassword: 'a-different-one' } });
    cleanup.push(() => second.app.close());
    expect(second.app.startup).toEqual({
      adminCreated: false,
      generatedAdminPassword: null,
      demoUsersCreated: [],
      generatedDemoPasswords: [],
    });
    const usersAfter = await second.app.db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash'])
      .execute();
    expect(usersAfter).toEqual(usersBefore);
    const migrations = await second.app.db
      // biome-ignore lint/suspicious/noExplicitAny: Kysely's own bookkeeping table is not in our schema type
      .selectFrom('kysely_migration' as any)
      .select('name')
      .execute();
    expect(migrations.map((m) => m.name)).toEqual(Object.keys(MIGRATIONS));
    const adminRole = await second.app.db
      .selectFrom('roles')
      .select('title')
      .where('name', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(adminRole.title).toBe('超级管理员');
    // The admin password is the first one still.
    expect((await signIn(second.app, 'admin', ADMIN_PASSWORD)).json().success).toBe(true);
  });

  it('refuses to start on a database that records a migration this build does not know', async () => {
    const db = await createTestDatabase(kind);
    cleanup.push(db.drop);
    const first = await start(db);
    await first.app.db
      // biome-ignore lint/suspicious/noExplicitAny: Kysely's own bookkeeping table is not in our schema type
      .insertInto('kysely_migration' as any)
      .values({ name: '9999_from_a_newer_build', timestamp: new Date().toISOString() })
      .execute();
    await first.app.close();
    // Not taken for up to date (the quick check at start counts names too): the Migrator refuses.
    await expect(start(db)).rejects.toThrow(/database migration failed/);
  });

  it('generates a strong admin password when none is configured, and skips demo users when off', async () => {
    const db = await createTestDatabase(kind);
    cleanup.push(db.drop);
    const t = await start(db, { config: { adminPassword: null, demoUsers: false } });
    cleanup.push(() => t.app.close());
    const generated = t.app.startup.generatedAdminPassword;
    expect(generated).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(t.app.startup.demoUsersCreated).toEqual([]);
    expect((await signIn(t.app, 'admin', generated as string)).json().success).toBe(true);
    const users = await t.app.db.selectFrom('users').select('username').execute();
    expect(users.map((u) => u.username)).toEqual(['admin']);
  });
});
