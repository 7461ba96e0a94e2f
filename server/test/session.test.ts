import { ErrorCode, permissionsOf } from '@wanxiang/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeUserSessions } from '../src/domain/auth/index.js';
import { TTL_MS } from '../src/domain/auth/pg-session-memo.js';
import { ADMIN_PASSWORD, DB_KINDS, DEMO_PASSWORD, startTestApp, type TestApp } from './helpers/app.js';
import { bearer, tokenOf } from './helpers/auth.js';
import { withPg } from './helpers/pg.js';

describe.each(DB_KINDS)('sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const current = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/user/current', headers });

  async function userId(username: string): Promise<number> {
    const row = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('answers the current user with roles and the permissions they grant', async () => {
    const token = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    const res = await current(bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id: await userId('editor'),
        username: 'editor',
        nickname: '编辑演示账号',
        avatar: null,
        roles: ['editor'],
        permissions: permissionsOf(['editor']),
      },
    });
    expect(res.json().data.permissions).toContain('blog:write');
    expect(res.json().data.permissions).not.toContain('system:read');
  });

  it('answers a user without roles with empty roles and permissions', async () => {
    const token = await tokenOf(t.app, 'guest', DEMO_PASSWORD);
    expect((await current(bearer(token))).json().data).toMatchObject({
      username: 'guest',
      roles: [],
      permissions: [],
    });
  });

  it.each([
    ['no token', {}],
    ['an unknown token', bearer('A'.repeat(43))],
    ['a malformed header', { authorization: 'Basic YWRtaW46eA==' }],
  ])('answers 401 for %s', async (_name, headers) => {
    const res = await current(headers as Record<string, string>);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, errorCode: ErrorCode.unauthorized, message: '请先登录' });
  });

  it('signs out: the token is revoked server-side and answers 401 afterwards', async () => {
    const token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
    const out = await t.app.inject({ method: 'GET', url: '/api/login/signout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true });
    expect((await current(bearer(token))).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'GET', url: '/api/login/signout', headers: bearer(token) });
    expect(again.statusCode).toBe(401);
  });

  it('expires a token after the session TTL', async () => {
    const token = await tokenOf(t.app, 'admin', ADMIN_PASSWORD);
    t.clock.advance(t.config.sessionTtlMs - 1);
    expect((await current(bearer(token))).statusCode).toBe(200);
    t.clock.advance(1);
    const res = await current(bearer(token));
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe(ErrorCode.unauthorized);
  });

  it('answers HTTP 200 errorCode 1 once an administrator revoked the sessions', async () => {
    const first = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
    const second = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
    const bystander = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    const revoked = await revokeUserSessions(t.app.db, await userId('operator'), 'revoked', t.clock.now());
    expect(revoked).toBeGreaterThanOrEqual(2);
    for (const token of [first, second]) {
      const res = await current(bearer(token));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: false,
        errorCode: ErrorCode.sessionRevoked,
        message: '登录状态已失效，请重新登录',
      });
    }
    expect((await current(bearer(bystander))).statusCode).toBe(200);
    // A new sign-in gives a working session again.
    expect((await current(bearer(await tokenOf(t.app, 'operator', DEMO_PASSWORD)))).statusCode).toBe(200);
  });

  it('answers errorCode 1 to a disabled user, and revoking with reason "disabled" does too', async () => {
    const token = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
    const id = await userId('editor');
    await t.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', id).execute();
    try {
      const res = await current(bearer(token));
      expect(res.statusCode).toBe(200);
      expect(res.json().errorCode).toBe(ErrorCode.sessionRevoked);
    } finally {
      await t.app.db.updateTable('users').set({ status: 'active' }).where('id', '=', id).execute();
    }
    expect((await current(bearer(token))).statusCode).toBe(200);
    await revokeUserSessions(t.app.db, id, 'disabled', t.clock.now());
    expect((await current(bearer(token))).json().errorCode).toBe(ErrorCode.sessionRevoked);
    const rows = await t.app.db
      .selectFrom('sessions')
      .select('revoked_reason')
      .where('user_id', '=', id)
      .where('expires_at', '>', t.clock.now())
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.revoked_reason === 'disabled')).toBe(true);
  });

  // On SQLite a lookup is kept until the next commit by any connection (sessions.ts): each of
  // these looks the token up first, so the answer is kept, then changes what it depends on.
  it('shows a role taken away, a revocation and a sign-out at the next call after a kept lookup', async () => {
    const token = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
    const id = await userId('operator');
    expect((await current(bearer(token))).json().data.roles).toEqual(['operator']);
    expect((await current(bearer(token))).json().data.roles).toEqual(['operator']);
    const taken = await t.app.db.selectFrom('user_roles').selectAll().where('user_id', '=', id).execute();
    await t.app.db.deleteFrom('user_roles').where('user_id', '=', id).execute();
    try {
      expect((await current(bearer(token))).json().data).toMatchObject({ roles: [], permissions: [] });
    } finally {
      await t.app.db.insertInto('user_roles').values(taken).execute();
    }
    expect((await current(bearer(token))).json().data.roles).toEqual(['operator']);
    await t.app.db
      .updateTable('sessions')
      .set({ revoked_at: t.clock.now(), revoked_reason: 'revoked' })
      .where('user_id', '=', id)
      .execute();
    expect((await current(bearer(token))).json().errorCode).toBe(ErrorCode.sessionRevoked);

    const other = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
    expect((await current(bearer(other))).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/login/signout', headers: bearer(other) });
    expect((await current(bearer(other))).statusCode).toBe(401);
  });

  it.runIf(kind === 'sqlite')(
    'shows a change another process commits to the file at the next call',
    async () => {
      const token = await tokenOf(t.app, 'editor', DEMO_PASSWORD);
      expect((await current(bearer(token))).json().data.nickname).toBe('编辑演示账号');
      const file = t.app.dbReader?.file as string;
      const other = new Database(file);
      try {
        other.prepare('update users set nickname = ? where username = ?').run('另一个进程改的', 'editor');
        expect((await current(bearer(token))).json().data.nickname).toBe('另一个进程改的');
        other.prepare('update users set nickname = ? where username = ?').run('编辑演示账号', 'editor');
        expect((await current(bearer(token))).json().data.nickname).toBe('编辑演示账号');
      } finally {
        other.close();
      }
    },
  );

  /** Calls `current` until `done` says yes, or the deadline passes; answers the last answer. */
  async function until(
    token: string,
    done: (body: { success: boolean; errorCode?: number }) => boolean,
    ms: number,
  ) {
    const deadline = performance.now() + ms;
    for (;;) {
      const res = await current(bearer(token));
      const body = res.statusCode === 401 ? { success: false, errorCode: 401 } : res.json();
      if (done(body) || performance.now() > deadline) return body;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  // PostgreSQL keeps lookups in memory (pg-session-memo.ts): a change this process commits drops
  // them at once, one committed elsewhere when its trigger's notification arrives, and with the
  // trigger off (a notification lost) the kept answer lasts at most TTL_MS.
  it.runIf(kind === 'postgres')(
    'keeps a lookup; drops it at this process’s commit at once and at another connection’s notification',
    async () => {
      const url = t.app.config.database.dialect === 'postgres' ? t.app.config.database.url : '';
      const id = await userId('operator');
      // One connection of its own (standing in for another process), open before any lookup is
      // kept, so a revocation through it takes one round trip — far inside TTL_MS.
      await withPg(url, async (elsewhere) => {
        const revokeNewest = () =>
          elsewhere.query(
            "update sessions set revoked_at = $1, revoked_reason = 'revoked' where id = (select id from sessions where user_id = $2 and revoked_at is null order by id desc limit 1)",
            [t.clock.now(), id],
          );
        // Heard through the trigger's notification, well within TTL_MS: not the expiry of the kept answer.
        const first = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
        expect((await current(bearer(first))).statusCode).toBe(200);
        await revokeNewest();
        expect(
          (await until(first, (b) => b.errorCode === ErrorCode.sessionRevoked, TTL_MS / 2)).errorCode,
        ).toBe(ErrorCode.sessionRevoked);

        await elsewhere.query('alter table sessions disable trigger sessions_auth_changed');
        try {
          // With the notification gone the lookup is kept: the revocation is not seen at once…
          const second = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
          expect((await current(bearer(second))).statusCode).toBe(200);
          await revokeNewest();
          expect((await current(bearer(second))).json().success).toBe(true);
          // …and not after TTL_MS.
          expect(
            (await until(second, (b) => b.errorCode === ErrorCode.sessionRevoked, TTL_MS + 3_000)).errorCode,
          ).toBe(ErrorCode.sessionRevoked);

          // This process's own commit needs no notification: the next call sees it.
          const third = await tokenOf(t.app, 'operator', DEMO_PASSWORD);
          expect((await current(bearer(third))).statusCode).toBe(200);
          await revokeUserSessions(t.app.db, id, 'revoked', t.clock.now());
          expect((await current(bearer(third))).json().errorCode).toBe(ErrorCode.sessionRevoked);
        } finally {
          await elsewhere.query('alter table sessions enable trigger sessions_auth_changed');
        }
      });
    },
  );

  it('revokeUserSessions leaves ended sessions as they were and counts only live ones', async () => {
    const id = await userId('guest');
    const token = await tokenOf(t.app, 'guest', DEMO_PASSWORD);
    await t.app.inject({ method: 'GET', url: '/api/login/signout', headers: bearer(token) });
    await tokenOf(t.app, 'guest', DEMO_PASSWORD);
    const live = await t.app.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', t.clock.now())
      .execute();
    expect(live).toHaveLength(1);
    expect(await revokeUserSessions(t.app.db, id, 'revoked', t.clock.now())).toBe(live.length);
    const reasons = await t.app.db
      .selectFrom('sessions')
      .select('revoked_reason')
      .where('user_id', '=', id)
      .execute();
    expect(reasons.map((r) => r.revoked_reason)).toContain('signout');
    expect(await revokeUserSessions(t.app.db, id, 'revoked', t.clock.now())).toBe(0);
  });
});
