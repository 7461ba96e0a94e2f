/**
 * The document library, public side (API.md "Public"):
 *
 *   GET /api/public/doc/categories                              → category tree with counts
 *   GET /api/public/docs?categoryId=&q=&validity=&page=&limit=  → list or search
 *   GET /api/docs/{id}/pages/{page}  (login)                    → one page of a document
 *
 * Every search with a q is logged to doc_search_logs, in batches (search-log.ts). Importing this
 * plugin also registers the hooks that keep the search index in step with admin writes
 * (resource.ts).
 */

import { VALIDITIES, type Validity } from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { invalidInput, JSON_CONTENT_TYPE, notFound, ok, okBytes } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { bumpVersion, VersionedKeeper } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { ownMemory } from '../../resources/own-memory.js';
import { signedIn } from '../auth/index.js';
import { categoryTree, type DocQuery, docPage, MATCH_CAP, searchDocs } from './search.js';
import { keepSearchLog, SearchLog } from './search-log.js';

/**
 * Searches (and lists) of the library answered again while it is unchanged: kept by the versions
 * of the documents, their pages and the categories — every admin write to them, the index's
 * included (resource.ts), changes one — and at most 10 s old for another process's writes, as the
 * lists' totals (resources/counts.ts). The same searches come again and again (a statute's name, a
 * word of the day's news); each was four statements, a search's largest cost being node-postgres
 * decoding the candidates' and pages' text (BENCHMARKS.md, twelfth session). A document's views
 * change no version: the count shown may be up to 10 s old. Each search is still logged, with the
 * hits it answered (search-log.ts). What is kept is the answer as sent (its JSON written once),
 * with the total the log records. At most `KEPT_SEARCHES` per process, oldest out first.
 */
const KEPT_SEARCHES = 500;
const searches = new VersionedKeeper<{ total: number; bytes: Buffer }>(
  ['docs', 'docPages', 'docCategories'],
  KEPT_SEARCHES,
);

export const MAX_QUERY_LENGTH = 100;
export const MAX_LIMIT = 50;
export const MAX_PAGE = 10_000;

const documentOnly = () => () => true;

const validitySchema = {
  type: 'string',
  enum: [...VALIDITIES],
  description: '时效性：现行有效/已被修改/已废止',
};
const docMeta = {
  id: { type: 'integer' },
  title: { type: 'string' },
  docNo: { type: ['string', 'null'], description: '文号' },
  issuer: { type: ['string', 'null'], description: '制定机关' },
  publishDate: { type: ['string', 'null'], description: '公布日期 YYYY-MM-DD' },
  effectiveDate: { type: ['string', 'null'], description: '施行日期 YYYY-MM-DD' },
  validity: validitySchema,
  summary: { type: ['string', 'null'] },
  categoryId: { type: 'integer' },
  pageCount: { type: 'integer' },
  views: { type: 'integer' },
} as const;
const hitSchema = {
  type: 'object',
  properties: {
    ...docMeta,
    snippet: { type: ['string', 'null'], description: 'HTML 安全：文字已转义，命中处包在 <mark> 中' },
    titleHtml: { type: 'string', description: 'HTML 安全的标题，命中处包在 <mark> 中' },
    hitPage: { type: ['integer', 'null'], description: '摘录所在的页码' },
  },
} as const;
type CategorySchema = Record<string, unknown>;
const categorySchema: CategorySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    parentId: { type: ['integer', 'null'] },
    count: { type: 'integer', description: '本分类及下级分类中已发布的文档数' },
    ownCount: { type: 'integer', description: '直接属于本分类的已发布文档数' },
    children: { type: 'array', items: { type: 'object', description: '下级分类（结构同上）' } },
  },
};
const invalid = { 422: { description: '参数不合规', ...failureEnvelopeSchema } } as const;

/** A whole number in [min, max] from a query string value, or a 422 naming the field. */
function integerParam(
  value: unknown,
  field: string,
  label: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  const n = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw invalidInput({ [field]: `${label}应为 ${min} 到 ${max} 之间的整数` });
  return n;
}

export function parseDocQuery(raw: Record<string, unknown>): DocQuery {
  const fields: Record<string, string> = {};
  const attempt = <T>(run: () => T): T | undefined => {
    try {
      return run();
    } catch (error) {
      const more = (error as { data?: { fields?: Record<string, string> } }).data?.fields;
      if (more) Object.assign(fields, more);
      else throw error;
      return undefined;
    }
  };
  const single = (name: string): unknown => {
    const v = raw[name];
    if (Array.isArray(v)) {
      fields[name] = `${name} 只能出现一次`;
      return undefined;
    }
    return v;
  };
  const qRaw = single('q');
  const q = typeof qRaw === 'string' ? qRaw.trim() : undefined;
  if (q !== undefined && [...q].length > MAX_QUERY_LENGTH) fields.q = `搜索词最多 ${MAX_QUERY_LENGTH} 个字`;
  const categoryId = attempt(() =>
    integerParam(single('categoryId'), 'categoryId', '分类', 1, 2_147_483_647),
  );
  const validityRaw = single('validity');
  let validity: Validity | undefined;
  if (validityRaw !== undefined && validityRaw !== '') {
    if ((VALIDITIES as readonly unknown[]).includes(validityRaw)) validity = validityRaw as Validity;
    else fields.validity = '时效性只能是现行有效、已被修改或已废止';
  }
  const page = attempt(() => integerParam(single('page'), 'page', '页码', 1, MAX_PAGE)) ?? 1;
  const limit = attempt(() => integerParam(single('limit'), 'limit', '每页条数', 1, MAX_LIMIT)) ?? 20;
  if (Object.keys(fields).length > 0) throw invalidInput(fields, Object.values(fields).join('；'));
  return {
    ...(q ? { q } : {}),
    ...(categoryId ? { categoryId } : {}),
    ...(validity ? { validity } : {}),
    page,
    limit,
  };
}

export const docsRoutes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as AnyDb;
  const dialect = app.dbDialect;
  // Searches are logged in batches (search-log.ts); a clean stop writes what is still kept, before
  // the database closes (the root's onClose hooks run after this plugin's).
  const searchLog = new SearchLog(db, () => bumpVersion(app.db, 'docSearchLogs'), app.log);
  keepSearchLog(app.db, searchLog);
  app.addHook('onClose', () => searchLog.close());

  /** The signed-in user of a public request, if any (a bad token is simply anonymous here). */
  async function visitorId(request: FastifyRequest): Promise<number | null> {
    if (!request.headers.authorization) return null;
    try {
      await app.requireUser.call(app, request, undefined as never);
      return request.user?.id ?? null;
    } catch {
      return null;
    }
  }

  app.get(
    '/api/public/doc/categories',
    {
      schema: {
        tags: ['docs'],
        summary: '文档分类树（含已发布文档数）',
        response: { 200: successEnvelopeSchema({ type: 'array', items: categorySchema }) },
      },
    },
    async () => ok(await categoryTree(db)),
  );

  app.get<{ Querystring: Record<string, unknown> }>(
    '/api/public/docs',
    {
      preHandler: app.admit,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['docs'],
        summary: '文档列表与搜索（中文按二元切分检索，标题命中优先）',
        description:
          '无 q 时按公布日期倒序列出；有 q 时全文检索标题、摘要和正文，结果按标题命中、命中次数、公布日期排序，' +
          `最多排序前 ${MATCH_CAP} 条（超过时 totalExact 为 false）。每次检索记入搜索日志。`,
        querystring: {
          type: 'object',
          properties: {
            q: {
              type: 'string',
              title: '搜索词',
              maxLength: MAX_QUERY_LENGTH,
              description: '搜索词，如 合同、法、劳动合同',
            },
            categoryId: { type: 'integer', title: '分类', minimum: 1, description: '分类（含下级分类）' },
            validity: validitySchema,
            page: { type: 'integer', title: '页码', minimum: 1, maximum: MAX_PAGE, default: 1 },
            limit: { type: 'integer', title: '每页条数', minimum: 1, maximum: MAX_LIMIT, default: 20 },
          },
        },
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              results: { type: 'array', items: hitSchema },
              page: {
                type: 'object',
                properties: {
                  total: { type: 'integer' },
                  page: { type: 'integer' },
                  limit: { type: 'integer' },
                },
              },
              totalExact: { type: 'boolean' },
              categoryPath: {
                type: 'array',
                items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
              },
            },
          }),
          ...invalid,
        },
      },
    },
    async (request, reply) => {
      const query = parseDocQuery(request.query ?? {});
      const started = performance.now();
      const now = app.config.now();
      const key = JSON.stringify(query);
      const version = searches.version(db);
      const kept = searches.get(db, key, now);
      let answer = kept?.value;
      if (!answer) {
        const result = await searchDocs(db, dialect, query);
        answer = { total: result.page.total, bytes: ownMemory(okBytes({ ...result })) };
        searches.set(db, key, answer, version, now);
      }
      const tookMs = Math.round(performance.now() - started);
      if (query.q)
        searchLog.add({
          q: query.q,
          userId: await visitorId(request),
          hits: answer.total,
          tookMs,
          at: now,
        });
      return reply.type(JSON_CONTENT_TYPE).send(answer.bytes);
    },
  );

  app.get<{ Params: { id: string; page: string } }>(
    '/api/docs/:id/pages/:page',
    {
      preHandler: app.requireUser,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['docs'],
        summary: '阅读文档的一页（需登录，计阅读数）',
        security: bearerSecurity,
        params: {
          type: 'object',
          properties: {
            id: { type: 'integer', title: '文档', minimum: 1 },
            page: { type: 'integer', title: '页码', minimum: 1 },
          },
        },
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              doc: { type: 'object', properties: docMeta },
              page: {
                type: 'object',
                properties: { pageNo: { type: 'integer' }, content: { type: 'string' } },
              },
            },
          }),
          ...authFailureResponses,
          404: { description: '文档或页不存在', ...failureEnvelopeSchema },
          ...invalid,
        },
      },
    },
    async (request) => {
      signedIn(request);
      const id = integerParam(request.params.id, 'id', '文档编号', 1, 2_147_483_647);
      const pageNo = integerParam(request.params.page, 'page', '页码', 1, 100_000);
      if (id === undefined || pageNo === undefined) throw invalidInput({ page: '请指定文档和页码' });
      const found = await docPage(db, id, pageNo);
      if (!found) throw notFound('文档或该页不存在');
      return ok(found);
    },
  );
};
