/**
 * The JSON body parser of every route: Fastify's own (with its `__proto__` / `constructor`
 * refusals) behind a bound on nesting depth.
 *
 * Why a bound: JSON.parse itself takes any depth, but what runs on the value afterwards is
 * recursive — JSON.stringify (storing a JSON field or a preference), zod and Ajv walking it,
 * the audit diff. A 10 KB body nested 5 000 deep overflowed the stack there and answered 500.
 * Checking the text before it is parsed is one place for every route, costs one pass over
 * bytes already in memory, and refuses before anything is built.
 *
 * Why 64: the deepest body the API takes from a form is a resource body holding a JSON field
 * of a registry shape (core/src/resources/json-shapes.ts): body object → array (order lines,
 * SKUs, discount tiers, keyword rules, cache rules…) → item object: 3 levels. The free-form
 * ones — a module's config (moduleConfig), a user's preferences (saved filters, columns) — are
 * written by our screens a few levels deep. 64 is ten times that headroom for a hand-written
 * config and still far below the thousands of levels where recursion runs out of stack.
 */
import { ErrorCode, t } from '@wanxiang/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './envelope.js';

export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d;

/**
 * True when `text` opens more than `max` arrays/objects one inside another. Brackets inside
 * strings do not count. Malformed text is not judged here (JSON.parse refuses it next); the
 * only promise is that text that parses has at most `max` levels when this says false.
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: to the next quote not escaped, i.e. after an even run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

export const tooDeep = () =>
  new ApiError({
    status: 422,
    errorCode: ErrorCode.invalidInput,
    message: t('jsonTooDeep', { max: MAX_JSON_DEPTH }),
  });

/** Replaces `application/json` at the root, so every route (and every area's scope) inherits it. */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    // The parser Fastify would have used, with the same prototype-poisoning answers ('error').
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      // parseAs 'string' hands a string; the type also allows the Buffer of parseAs 'buffer'.
      const text = body as string;
      if (jsonTooDeep(text)) return done(tooDeep(), undefined);
      return parseJson(request, text, done);
    });
  },
  { name: 'wanxiang-json-body' },
);
