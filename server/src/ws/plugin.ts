/**
 * `GET /ws` (API.md): one WebSocket per client. The client's first message names what it wants:
 *
 *   → {"type":"subscribe","topic":"login:<ticket>"}            a public topic
 *   → {"type":"subscribe","topic":"user:7","token":"<bearer>"} a topic that needs a user
 *   ← {"type":"subscribed","topic":"login:<ticket>"}
 *   ← {"topic":"login:<ticket>","data":{"status":"scanned"}}   every publish to the topic
 *   ← {"type":"error","message":"…"} and the socket closes       refused or malformed
 *
 * More subscribe messages may follow (up to MAX_TOPICS per socket); `{"type":"unsubscribe",
 * "topic":…}` ends one. A socket that says nothing within FIRST_MESSAGE_MS is closed, and a
 * ping every PING_MS drops connections that stopped answering. `app.hub` is shared with every
 * area (fastify-plugin) so they can publish. On PostgreSQL the hub is connected to the other
 * server processes on the database (./pg-fanout.ts), so any process's sockets hear every publish.
 */
import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type { AuthUser } from '../domain/auth/auth-plugin.js';
import { Hub } from './hub.js';
import { PgFanout } from './pg-fanout.js';
import { userOfToken } from './token-user.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Publish to `/ws` subscribers: `app.hub.publish('login:<ticket>', {status})`. */
    hub: Hub;
    /** The hub's link to the other processes (PostgreSQL), null on SQLite. */
    hubFanout: PgFanout | null;
  }
}

export const FIRST_MESSAGE_MS = 10_000;
export const PING_MS = 30_000;
export const MAX_TOPICS = 20;
const MAX_MESSAGE_BYTES = 4096;

/** Close codes (4000–4999 are the application's). */
export const WS_CLOSE = { badMessage: 4400, unauthorized: 4401, forbidden: 4403, timeout: 4408 } as const;

const WS_MESSAGES = {
  badMessage: '消息格式错误',
  unauthorized: '登录已失效，请重新登录',
  forbidden: '没有权限订阅该主题',
  tooManyTopics: '订阅的主题过多',
  timeout: '连接后未订阅任何主题',
} as const;

interface ClientMessage {
  type?: unknown;
  topic?: unknown;
  token?: unknown;
}

export const wsPlugin = fp(
  async (app) => {
    const hub = new Hub();
    app.decorate('hub', hub);
    const database = app.config.database;
    if (database.dialect === 'postgres') {
      const fanout = new PgFanout({
        url: database.url,
        db: app.db,
        log: app.log.child({ area: 'ws' }),
        now: app.config.now,
        deliver: (topic, data) => hub.deliver(topic, data),
      });
      await fanout.start();
      hub.connect(fanout);
      app.decorate('hubFanout', fanout);
      app.addHook('onClose', async () => fanout.close());
    } else {
      app.decorate('hubFanout', null);
    }
    // In a scope of its own: @fastify/websocket wraps the handler of every route it can see, and
    // it only needs to see /ws (wrapping them all cost ~1.5 % of every API request).
    await app.register(async (scope) => {
      await scope.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });

      const alive = new WeakSet<WebSocket>();
      const ping = setInterval(() => {
        for (const client of scope.websocketServer.clients) {
          if (!alive.has(client)) {
            client.terminate();
            continue;
          }
          alive.delete(client);
          client.ping();
        }
      }, PING_MS);
      ping.unref();
      scope.addHook('onClose', async () => clearInterval(ping));

      scope.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
        alive.add(socket);
        socket.on('pong', () => alive.add(socket));
        const subscriptions = new Map<string, () => void>();
        let user: AuthUser | null = null;
        let queue = Promise.resolve();

        const send = (message: unknown) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
        };
        const refuse = (code: number, message: string) => {
          send({ type: 'error', message });
          socket.close(code, '');
        };
        const firstMessage = setTimeout(() => {
          if (subscriptions.size === 0) refuse(WS_CLOSE.timeout, WS_MESSAGES.timeout);
        }, FIRST_MESSAGE_MS);
        firstMessage.unref();

        async function handle(raw: string): Promise<void> {
          let message: ClientMessage;
          try {
            message = JSON.parse(raw) as ClientMessage;
          } catch {
            return refuse(WS_CLOSE.badMessage, WS_MESSAGES.badMessage);
          }
          const topic = typeof message.topic === 'string' ? message.topic : '';
          if (!message || typeof message !== 'object' || topic === '' || topic.length > 200) {
            return refuse(WS_CLOSE.badMessage, WS_MESSAGES.badMessage);
          }
          if (message.type === 'unsubscribe') {
            subscriptions.get(topic)?.();
            subscriptions.delete(topic);
            return;
          }
          if (message.type !== 'subscribe') return refuse(WS_CLOSE.badMessage, WS_MESSAGES.badMessage);
          if (typeof message.token === 'string' && message.token !== '') {
            user = await userOfToken(app.db, message.token, app.config.now());
            if (!user) return refuse(WS_CLOSE.unauthorized, WS_MESSAGES.unauthorized);
          }
          if (!hub.mayListen(user, topic)) {
            return user || !hub.needsUser(topic)
              ? refuse(WS_CLOSE.forbidden, WS_MESSAGES.forbidden)
              : refuse(WS_CLOSE.unauthorized, WS_MESSAGES.unauthorized);
          }
          if (!subscriptions.has(topic)) {
            if (subscriptions.size >= MAX_TOPICS)
              return refuse(WS_CLOSE.badMessage, WS_MESSAGES.tooManyTopics);
            subscriptions.set(
              topic,
              hub.subscribe(topic, (data) => send({ topic, data })),
            );
          }
          send({ type: 'subscribed', topic });
        }

        socket.on('message', (data, isBinary) => {
          if (isBinary) return refuse(WS_CLOSE.badMessage, WS_MESSAGES.badMessage);
          // One at a time: a token check must not let a later message overtake an earlier one.
          queue = queue
            .then(() => handle(data.toString()))
            .catch((err) => {
              request.log.warn({ err }, 'websocket message failed');
              socket.close(1011, '');
            });
        });
        socket.on('close', () => {
          clearTimeout(firstMessage);
          for (const unsubscribe of subscriptions.values()) unsubscribe();
          subscriptions.clear();
        });
      });
    });
  },
  { name: 'wanxiang-ws', dependencies: ['wanxiang-database', 'wanxiang-auth'] },
);
