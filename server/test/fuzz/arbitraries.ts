/**
 * Requests for one operation of the OpenAPI document, as fast-check arbitraries: values the
 * schema allows (so the handler behind the validation is reached) and values that are
 * deliberately wrong — wrong types, unknown fields, unicode edge cases, malformed and huge and
 * deep JSON, wrong content types, broken multipart, odd path segments and query strings.
 */
import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '../../src/http/json-depth.js';
import type { JsonSchema, Operation, Param } from './operations.js';

/** What the harness sends through `app.inject`; printed as it is when a property fails. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The raw body (text or bytes), or undefined for none. */
  payload?: string | Buffer;
  /** How the body was made, for the report (`valid`, `wrong field`, `deep 5000`, …). */
  kind: string;
}

/** Values seen in answers, so paths and bodies can name rows that exist. */
export interface Pools {
  /** Ids by path prefix (`/api/admin/stores`), from 2xx answers under it. */
  ids(prefix: string): number[];
  /** Other values by field name (`ticket`, `number`, `code`, `key`), from any 2xx answer. */
  values(name: string): (string | number)[];
}

// Strings that have broken parsers, databases, loggers and text handling somewhere.
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  'x\ud83dy',
  '\u202e\u202dabc\u200f', // RTL / LTR overrides and marks
  '\ufeff', // BOM
  '😀👩‍👩‍👧‍👦🇨🇳',
  '𠜎𠜱𠝹',
  '中文测试',
  'Ａ\u3000全角',
  'e\u0301\u0301\u0301', // combining marks
  "'; drop table users; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '\\',
  '\\u0000',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e400',
  '9'.repeat(400),
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '\r\n\r\n',
  '\t',
  '2025-02-30T25:61:61Z',
  '0000-00-00',
  'a'.repeat(10_000),
];

const LONG_STRINGS = ['中'.repeat(100_000), 'x'.repeat(300_000)];

/** Nasty strings for URLs (the long ones would only meet the URL length limit). */
export const nastyShortString: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: nastyShortString },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_STRINGS) },
);

const NASTY_NUMBERS = [
  0,
  -1,
  1.5,
  -0.000001,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  Number.MAX_VALUE,
  1e-320,
];

/** Any JSON value of the wrong kind for a field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(...NASTY_NUMBERS),
  nastyString,
  fc.constant([]),
  fc.constant({}),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant({ __proto__x: 1, constructor: { prototype: { polluted: true } } }),
);

const ID_FIELD = /Id$/;

/** A value the schema allows (within reason: strings are kept short, arrays small). */
export function validValue(schema: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  const arb = validValueOfType(schema, name, depth);
  return schema.nullable ? fc.option(arb, { nil: null, freq: 5 }) : arb;
}

function validValueOfType(schema: JsonSchema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'date-time' || schema.format === 'date') {
        const date = fc
          .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString());
        return schema.format === 'date' ? date.map((d) => d.slice(0, 10)) : date;
      }
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 30, 60));
      return fc.oneof(
        fc.string({ unit: 'grapheme', minLength, maxLength }),
        fc.string({ unit: 'binary', minLength, maxLength }),
        fc.constantFrom(...NASTY_STRINGS).filter((s) => s.length >= minLength && s.length <= maxLength),
      );
    }
    case 'integer': {
      const min = Math.max(schema.minimum ?? (schema.exclusiveMinimum ?? -1_000_001) + 1, -(2 ** 31));
      const max = Math.min(schema.maximum ?? 1_000_000, 2 ** 31 - 1);
      const bounds = [schema.minimum, schema.maximum].filter((v): v is number => v !== undefined);
      // Foreign keys: small numbers name rows that exist (demo content).
      const small = ID_FIELD.test(name)
        ? [fc.integer({ min: Math.max(min, 1), max: Math.min(max, 40) })]
        : [];
      return fc.oneof(
        fc.integer({ min, max: Math.max(min, max) }),
        ...small,
        ...(bounds.length ? [fc.constantFrom(...bounds)] : []),
      );
    }
    case 'number': {
      const min = schema.minimum ?? -1e9;
      const max = schema.maximum ?? 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validValue(schema.items ?? {}, name, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) model[key] = validValue(value, key, depth + 1);
      if (Object.keys(model).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in model) });
    }
    default:
      // No type: any JSON (a preference value, a module's config).
      return depth > 4 ? fc.jsonValue({ maxDepth: 1 }) : fc.jsonValue({ maxDepth: 4 });
  }
}

/** A schema-valid body with one thing made wrong. */
function wrongBody(schema: JsonSchema): fc.Arbitrary<{ value: unknown; kind: string }> {
  const valid = validValue(schema);
  const fields = Object.keys(schema.properties ?? {});
  const variants: fc.Arbitrary<{ value: unknown; kind: string }>[] = [
    wrongValue.map((value) => ({ value, kind: 'wrong body' })),
    fc
      .tuple(valid, fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), wrongValue, { maxKeys: 3 }))
      .map(([value, extra]) => ({
        value: typeof value === 'object' && value !== null ? { ...extra, ...value } : value,
        kind: 'unknown fields',
      })),
  ];
  if (fields.length > 0) {
    variants.push(
      fc.tuple(valid, fc.constantFrom(...fields), wrongValue).map(([value, field, wrong]) => ({
        value: { ...(value as object), [field]: wrong },
        kind: `wrong ${field}`,
      })),
      fc.tuple(valid, fc.constantFrom(...fields)).map(([value, field]) => {
        const copy = { ...(value as Record<string, unknown>) };
        delete copy[field];
        return { value: copy, kind: `without ${field}` };
      }),
    );
  }
  return fc.oneof(...variants);
}

const nested = (levels: number, open = '[', close = ']', inner = '1') =>
  `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** Bodies that are not what any JSON route expects, as raw text or bytes. */
const RAW_BODIES: readonly { payload: string | Buffer; kind: string }[] = [
  { payload: '', kind: 'empty' },
  { payload: '{', kind: 'malformed {' },
  { payload: '{"a":', kind: 'malformed cut' },
  { payload: '[1,]', kind: 'malformed trailing comma' },
  { payload: "{'a':1}", kind: 'malformed quotes' },
  { payload: '{"a":1}}', kind: 'malformed extra brace' },
  { payload: 'nul', kind: 'malformed literal' },
  { payload: '\u0000', kind: 'NUL' },
  { payload: '"\\x"', kind: 'malformed escape' },
  { payload: '{"a":"\\ud800"}', kind: 'escaped lone surrogate' },
  { payload: '{"a":"\\u0000"}', kind: 'escaped NUL' },
  { payload: '{"__proto__":{"admin":true}}', kind: '__proto__' },
  { payload: '{"constructor":{"prototype":{"admin":true}}}', kind: 'constructor.prototype' },
  {
    payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    kind: 'invalid UTF-8',
  },
  { payload: Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), kind: 'BOM then {}' },
  { payload: 'null', kind: 'null' },
  { payload: '[]', kind: 'array' },
  { payload: '"text"', kind: 'string' },
  { payload: '12345678901234567890123', kind: 'number' },
  { payload: `{"value":${nested(MAX_JSON_DEPTH - 1)}}`, kind: `deep ${MAX_JSON_DEPTH}` },
  { payload: `{"value":${nested(MAX_JSON_DEPTH)}}`, kind: `deep ${MAX_JSON_DEPTH + 1}` },
  { payload: nested(5000), kind: 'deep 5000 arrays' },
  { payload: deepObject(5000), kind: 'deep 5000 objects' },
  { payload: `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`, kind: 'huge (over 1 MiB)' },
  { payload: `{"a":"${'中'.repeat(300_000)}"}`, kind: 'large (900 KB)' },
  { payload: `[${Array.from({ length: 100_000 }, (_, i) => i).join(',')}]`, kind: 'array of 100 000' },
];

const CONTENT_TYPES: readonly (string | null)[] = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=fuzz',
  null,
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/JSON',
  'application/vnd.api+json',
  'a/b/c;;=',
];

// 1×1 PNG.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
// A PNG that declares 30 000 × 30 000 pixels (header only).
const PNG_HUGE = (() => {
  const png = Buffer.from(PNG_1X1);
  png.writeUInt32BE(30_000, 16);
  png.writeUInt32BE(30_000, 20);
  return png;
})();

function multipart(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
  close = true,
) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--fuzz\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from('--fuzz--\r\n'));
  return Buffer.concat(chunks);
}

const MULTIPART_BODIES: readonly { payload: Buffer; kind: string }[] = [
  {
    payload: multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: PNG_1X1 }]),
    kind: 'multipart png',
  },
  {
    payload: multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: PNG_1X1 }], false),
    kind: 'multipart cut before the closing boundary',
  },
  {
    payload: multipart([
      { name: 'file', filename: 'a.png', type: 'image/png', data: PNG_1X1.subarray(0, 30) },
    ]),
    kind: 'multipart truncated png',
  },
  {
    payload: multipart([{ name: 'file', filename: 'big.png', type: 'image/png', data: PNG_HUGE }]),
    kind: 'multipart 30000² png',
  },
  {
    payload: multipart([
      { name: 'file', filename: '../../\u0000😀.mp3', type: 'audio/mpeg', data: 'ID3 not audio' },
    ]),
    kind: 'multipart odd filename',
  },
  { payload: multipart([{ name: 'other', data: 'x' }]), kind: 'multipart without file' },
  {
    payload: multipart([
      { name: 'file', filename: 'a.png', type: 'image/png', data: PNG_1X1 },
      { name: 'file', filename: 'b.png', type: 'image/png', data: PNG_1X1 },
    ]),
    kind: 'multipart two files',
  },
  {
    payload: Buffer.from('--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n'),
    kind: 'multipart headers only',
  },
  { payload: Buffer.from('--other\r\n\r\n--other--'), kind: 'multipart wrong boundary' },
];

interface Body {
  payload?: string | Buffer;
  contentType: string | null;
  kind: string;
}

function bodyFor(op: Operation): fc.Arbitrary<Body> {
  const json = (value: unknown, kind: string): Body => ({
    payload: JSON.stringify(value) ?? 'null',
    contentType: 'application/json',
    kind,
  });
  const schema = op.body ?? { type: 'object' };
  const raw = fc.constantFrom(...RAW_BODIES).map((b) => ({ ...b, contentType: 'application/json' }));
  const otherType = fc
    .tuple(validValue(schema), fc.constantFrom(...CONTENT_TYPES))
    .map(([value, contentType]) => ({
      payload: JSON.stringify(value),
      contentType,
      kind: `as ${contentType}`,
    }));
  const multipartBody = fc
    .constantFrom(...MULTIPART_BODIES)
    .map((b) => ({ ...b, contentType: 'multipart/form-data; boundary=fuzz' }));
  const none = fc.constant<Body>({ contentType: null, kind: 'no body' });
  return fc.oneof(
    { weight: op.body ? 5 : 1, arbitrary: validValue(schema).map((v) => json(v, 'valid')) },
    { weight: op.body ? 5 : 1, arbitrary: wrongBody(schema).map((w) => json(w.value, w.kind)) },
    { weight: 3, arbitrary: raw },
    { weight: 2, arbitrary: otherType },
    { weight: op.body ? 1 : 4, arbitrary: multipartBody },
    { weight: op.body ? 1 : 4, arbitrary: none },
  );
}

const ODD_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  ' 1',
  '99999999',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999999',
  'abc',
  '%00',
  '%zz',
  '%',
  '%ED%A0%80', // a surrogate encoded as UTF-8: not valid UTF-8
  '%C0%AF',
  '..',
  '%2e%2e%2f',
  encodeURIComponent('中文'),
  encodeURIComponent('😀'),
  encodeURIComponent('\u202e1'),
  'x'.repeat(3000),
];

/** Percent-encodes a string's UTF-8 bytes (lone surrogates become U+FFFD, as a browser sends). */
export const encode = (value: string) => encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));

function pathValue(op: Operation, param: Param, pools: Pools): fc.Arbitrary<string> {
  const odd = fc.oneof(fc.constantFrom(...ODD_SEGMENTS), nastyShortString.map(encode));
  const choices: fc.Arbitrary<string>[] = [odd];
  const prefix = op.path.slice(0, op.path.indexOf(`{${param.name}}`)).replace(/\/$/, '');
  const real = param.name === 'id' ? pools.ids(prefix) : pools.values(param.name);
  if (real.length > 0) choices.push(fc.constantFrom(...real).map((v) => encode(String(v))));
  if (param.schema.enum || param.schema.pattern) {
    choices.push(validValue(param.schema).map((v) => encode(String(v))));
  } else if (param.name !== 'id' && param.schema.type !== 'integer') {
    choices.push(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encode));
  }
  // Mostly values that reach the handler (real rows, allowed actions), the rest odd.
  return real.length > 0 || param.schema.enum
    ? fc.oneof({ weight: 1, arbitrary: odd }, { weight: 3, arbitrary: fc.oneof(...choices.slice(1)) })
    : fc.oneof(...choices);
}

function queryFor(op: Operation): fc.Arbitrary<string> {
  const params = op.params.filter((p) => p.in === 'query');
  const pairs = params.map((p) =>
    fc.option(
      fc.oneof(
        validValue(p.schema).map((v) => `${encode(p.name)}=${encode(String(v))}`),
        nastyShortString.map((v) => `${encode(p.name)}=${encode(v)}`),
        // Repeated: the parser makes an array of it.
        fc.constant(`${encode(p.name)}=1&${encode(p.name)}=2`),
        fc.constant(`${encode(p.name)}[]=1`),
      ),
      { nil: null, freq: 2 },
    ),
  );
  const extra = fc.option(
    fc.oneof(
      fc.constantFrom(
        '%',
        '%zz=1',
        '=',
        '&&',
        'a=%ED%A0%80',
        '__proto__[x]=1',
        'constructor=1',
        'x'.repeat(5000),
      ),
      fc.tuple(nastyShortString, nastyShortString).map(([k, v]) => `${encode(k)}=${encode(v)}`),
    ),
    { nil: null, freq: 3 },
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const parts = [...chosen, more].filter((x): x is string => x !== null);
    return parts.length ? `?${parts.join('&')}` : '';
  });
}

const API_KEYS = ['', 'x', 'wk_0000', "' or 1=1", 'k'.repeat(500)];

/** One request for `op` (the caller adds the role's authorization). */
export function requestFor(op: Operation, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const segments = fc.tuple(...pathParams.map((p) => pathValue(op, p, pools)));
  const apiKey = op.path.startsWith('/cloud/')
    ? fc.option(
        fc.oneof(fc.constantFrom(...API_KEYS), fc.constantFrom(...pools.values('key').map(String), 'none')),
        {
          nil: null,
        },
      )
    : fc.constant(null);
  const withBody = !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(op.method);
  const body = withBody ? bodyFor(op) : fc.constant<Body>({ contentType: null, kind: 'no body' });
  return fc.tuple(segments, queryFor(op), body, apiKey).map(([values, query, b, key]) => {
    let url = op.path;
    pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, values[i] as string);
    });
    const headers: Record<string, string> = {};
    if (b.contentType) headers['content-type'] = b.contentType;
    if (key !== null) headers['x-api-key'] = key;
    return { method: op.method, url: `${url}${query}`, headers, payload: b.payload, kind: b.kind };
  });
}
