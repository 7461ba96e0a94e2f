/**
 * What the fuzz calls: every operation of the app's own OpenAPI document (`app.swagger()`),
 * so a new route is fuzzed the day it is added, without editing the fuzz.
 */

/** The part of JSON Schema the routes' schemas use (checked against the document in the test). */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** Upper case, as sent. */
  method: string;
  /** The document's template, e.g. `/api/admin/stores/{id}/{action}` (`{*}` is a wildcard). */
  path: string;
  params: Param[];
  /** The JSON body's schema, or null when the document declares none (uploads, actions). */
  body: JsonSchema | null;
  /**
   * Raw body types sent on every run (openapi-fuzz.test.ts): those the route declares besides JSON
   * and multipart, or — where the document declares no JSON body for a POST/PUT/PATCH (uploads and
   * streams the route reads itself: CDN log import, restore, audio; actions) — PROBE_RAW_TYPES.
   * Such a body reaches the hooks and the route as a live stream, not parsed JSON, and a random pick
   * of body kinds may never choose one. (The crash a hook walking such a stream caused needed a
   * real socket's object graph to show — test/nul-characters.test.ts and the CLI's cdn and backup
   * tests hold that one; through `inject` the walk ended.)
   */
  rawTypes: string[];
  /** `METHOD path`, as printed and as FUZZ_ONLY matches it. */
  key: string;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

/**
 * Operations left out, each with its reason. Prefer making a route safe to fuzz over adding
 * to this list (signing out and key rotation are fuzzed: the harness signs its roles in again
 * when a session ends, see session.ts).
 */
export const EXCLUDED: Record<string, string> = {
  // Empty: every operation of the document is fuzzed. An entry is `'METHOD /path': 'why'`.
};

/** The raw types the routes that read their own body accept (cdn/routes.ts, backup/routes.ts). */
const PROBE_RAW_TYPES = ['application/octet-stream', 'application/gzip', 'text/plain'];

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, spec] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (key in EXCLUDED) continue;
      const params = (spec.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
        .map((p) => ({
          name: p.name,
          in: p.in as Param['in'],
          required: p.required ?? p.in === 'path',
          schema: p.schema ?? {},
        }));
      // A `{*}` segment is a wildcard: it is filled like a path parameter.
      if (path.includes('{*}') && !params.some((p) => p.name === '*')) {
        params.push({ name: '*', in: 'path', required: true, schema: { type: 'string' } });
      }
      const content = spec.requestBody?.content ?? {};
      const json = content['application/json'];
      const declared = Object.keys(content).filter(
        (type) => type !== 'application/json' && !type.startsWith('multipart/'),
      );
      const carriesBody = ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase());
      const rawTypes = declared.length > 0 ? declared : !json && carriesBody ? PROBE_RAW_TYPES : [];
      operations.push({
        method: method.toUpperCase(),
        path,
        params,
        body: json ? (json.schema ?? {}) : null,
        rawTypes,
        key,
      });
    }
  }
  return operations;
}
