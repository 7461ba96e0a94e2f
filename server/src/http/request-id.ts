/**
 * Every request gets an id that is logged with it and echoed in `x-request-id`, so a user
 * quoting the id of a 500 leads straight to the log line. A caller-supplied id (from a proxy)
 * is kept when it looks like an id; anything else is replaced, so it cannot forge log lines.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
}

export const requestIdPlugin = fp(
  async (app) => {
    // onSend runs for every answer, errors and 404s included. Hooks that never wait take the
    // callback form: an async one costs every request a promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done(null, payload);
    });
  },
  { name: 'wanxiang-request-id' },
);
