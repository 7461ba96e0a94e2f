/**
 * Authentication and authorization for routes: `app.requireUser` resolves the bearer token to
 * `request.user`, and `app.requirePermission(area, mode)` also checks the role permissions of
 * core. Routes opt in with `preHandler`, e.g.
 * `{ preHandler: app.requirePermission('system', 'read') }`.
 */
import { can, type PermissionArea, permissionsOf } from '@wanxiang/core';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, sessionRevoked, unauthorized } from '../../http/envelope.js';
import { PgSessionMemo } from './pg-session-memo.js';
import { findSessionByToken } from './sessions.js';

export interface AuthUser {
  id: number;
  username: string;
  nickname: string | null;
  avatar: string | null;
  roles: readonly string[];
  permissions: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 without a valid session, errorCode 1 when it was revoked or the user disabled. */
    requireUser: preHandlerAsyncHookHandler;
    /** preHandler: as requireUser, then 403 unless the user's roles grant `area:mode`. */
    requirePermission(area: PermissionArea, mode: 'read' | 'write'): preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** Set by requireUser / requirePermission. */
    user: AuthUser | null;
    sessionId: number | null;
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,128})\s*$/i;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * The signed-in user of a request that passed requireUser/requirePermission. Throws 401 if a
 * route forgot the preHandler, rather than handing out a null.
 */
export function signedIn(request: FastifyRequest): { user: AuthUser; sessionId: number } {
  if (!request.user || request.sessionId === null) throw unauthorized();
  return { user: request.user, sessionId: request.sessionId };
}

export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);

    // PostgreSQL: lookups kept in memory while the /ws fan-out listens (pg-session-memo.ts).
    let memo: PgSessionMemo | null = null;
    app.addHook('onReady', async () => {
      const fanout = app.hubFanout;
      const writes = app.dbAuthWrites;
      if (!fanout || !writes) return;
      const kept = new PgSessionMemo(() => fanout.listenGeneration);
      writes.subscribe(() => kept.bump());
      app.hub.subscribe('system:auth', () => kept.bump());
      memo = kept;
    });

    async function authenticate(request: FastifyRequest): Promise<AuthUser> {
      if (request.user) return request.user;
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const session = memo
        ? await memo.lookup(token, () => findSessionByToken(app.db, token))
        : await findSessionByToken(app.db, token, app.dbReader);
      if (!session) throw unauthorized();
      // An administrator's decision wins over expiry: the client is told its session was taken away.
      if (session.revokedReason === 'revoked' || session.revokedReason === 'disabled') throw sessionRevoked();
      if (session.userStatus !== 'active' || session.userDeletedAt !== null) throw sessionRevoked();
      if (session.revokedReason === 'signout' || session.expiresAt <= app.config.now()) throw unauthorized();
      const { userId: id, username, nickname, avatar, roles } = session;
      request.user = { id, username, nickname, avatar, roles, permissions: permissionsOf(roles) };
      request.sessionId = session.sessionId;
      return request.user;
    }

    const requireUser: preHandlerAsyncHookHandler = async (request) => {
      await authenticate(request);
    };
    app.decorate('requireUser', requireUser);

    app.decorate('requirePermission', (area: PermissionArea, mode: 'read' | 'write') => {
      const check: preHandlerAsyncHookHandler = async (request) => {
        const user = await authenticate(request);
        if (!can(user.permissions, area, mode)) throw forbidden();
      };
      return check;
    });
  },
  { name: 'wanxiang-auth', dependencies: ['wanxiang-database'] },
);
