/**
 * Refuses U+0000 in any text a request carries — path parameters, query and JSON body — with
 * a 422 before the handler runs.
 *
 * Why: PostgreSQL text cannot hold a NUL character (`invalid byte sequence for encoding
 * "UTF8": 0x00`), so a NUL in any stored or looked-up value answered 500 there, while SQLite
 * stored it. No form of ours produces one; refusing it at the edge makes both databases answer
 * the same, for every route at once. The walk is iterative and the body's depth is already
 * bounded at parse time (json-depth.ts).
 *
 * Only parsed JSON is walked — plain objects and arrays. A body a route takes as a stream (CDN
 * log import, restore) or a multipart part is a live object with cycles: walking its properties
 * grew an array until V8 aborted the process, so anything else is left to its route.
 */
import { ErrorCode, t } from '@wanxiang/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './envelope.js';

/** True when some string (or object key) inside `value` holds U+0000. */
export function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const child of v) stack.push(child);
    } else if (isPlainObject(v)) {
      for (const [key, child] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export const nulCharactersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      // Params and query are flat records of strings (the query parser's object has a prototype
      // of its own, so it is copied into a plain one).
      const params = { ...(request.params as object) };
      const query = { ...(request.query as object) };
      if (holdsNul(params) || holdsNul(query) || holdsNul(request.body)) {
        throw new ApiError({ status: 422, errorCode: ErrorCode.invalidInput, message: t('nulCharacter') });
      }
    });
  },
  { name: 'wanxiang-nul-characters' },
);
