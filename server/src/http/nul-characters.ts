/**
 * Refuses U+0000 in any text a request carries — path parameters, query and JSON body — with
 * a 422 before the handler runs.
 *
 * Why: PostgreSQL text cannot hold a NUL character (`invalid byte sequence for encoding
 * "UTF8": 0x00`), so a NUL in any stored or looked-up value answered 500 there, while SQLite
 * stored it. No form of ours produces one; refusing it at the edge makes both databases answer
 * the same, for every route at once. The walk is iterative and the body's depth is already
 * bounded at parse time (json-depth.ts).
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
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, child] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

export const nulCharactersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) {
        throw new ApiError({ status: 422, errorCode: ErrorCode.invalidInput, message: t('nulCharacter') });
      }
    });
  },
  { name: 'wanxiang-nul-characters' },
);
