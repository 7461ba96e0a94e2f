/**
 * The access-log import and the usage figures (README.md):
 *
 *   POST /api/admin/cdnDomains/{id}/import   cloud:write  the log as the raw body (plain or gzip) or multipart `file`
 *   GET  /api/admin/cdnImports               cloud:read   the imports, newest first
 *   GET  /api/admin/cdnUsage/hourly          cloud:read   hourly figures of some domains over a period
 */
import { HOUR_MS, hitRatioOf, hourStartOf } from '@wanxiang/core';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { registerUploads, streamUpload, type UploadLimit } from '../../files/uploads.js';
import { ApiError, invalidInput, notFound, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { bumpVersion } from '../../resources/counts.js';
import type { AnyDb } from '../../resources/extensions.js';
import { parseId } from '../../resources/query.js';
import { listImports, recordImport } from './imports.js';
import { readLog } from './read-log.js';

/** Raw bodies taken as a stream (never buffered by Fastify): what curl, the CLI and the UI send. */
const RAW_TYPES = ['application/octet-stream', 'application/gzip', 'application/x-gzip', 'text/plain'];
export const DEFAULT_IMPORT_MAX_BYTES = 2048 * 2 ** 20;
/** The longest period the hourly figures answer at once (90 days of hours per domain). */
const MAX_SERIES_MS = 92 * 86_400_000;

const sampleSchema = {
  type: 'object',
  properties: { line: { type: 'integer' }, reason: { type: 'string' }, text: { type: 'string' } },
} as const;

export const importSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    domainId: { type: 'integer' },
    domain: { type: ['string', 'null'] },
    sha256: { type: 'string', description: '解压后内容的 SHA-256（同一文件不重复计数）' },
    fileName: { type: ['string', 'null'] },
    lines: { type: 'integer', description: '非空行数（含格式错误的行）' },
    malformed: { type: 'integer', description: '格式错误、未计入的行数' },
    requests: { type: 'integer' },
    bytes: { type: 'integer' },
    hours: { type: 'integer', description: '涉及的小时数' },
    firstHour: { type: ['string', 'null'], format: 'date-time' },
    lastHour: { type: ['string', 'null'], format: 'date-time' },
    hasCache: { type: 'boolean', description: '日志是否带缓存状态字段（否则命中率未知）' },
    samples: { type: 'array', items: sampleSchema, description: '前几条格式错误的行（行号、原因、内容）' },
    userId: { type: ['integer', 'null'] },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

const hourSchema = {
  type: 'object',
  properties: {
    hour: { type: 'string', format: 'date-time', description: '该小时的开始（UTC）' },
    requests: { type: 'integer' },
    bytes: { type: 'integer' },
    hits: { type: 'integer' },
    misses: { type: 'integer' },
    hitRatio: { type: ['number', 'null'], description: '无缓存状态数据时为 null（未知）' },
    status2xx: { type: 'integer' },
    status3xx: { type: 'integer' },
    status4xx: { type: 'integer' },
    status5xx: { type: 'integer' },
  },
} as const;

interface ImportParams {
  id: string;
}
interface ImportQuery {
  fileName?: string;
}

export const cdnRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  const db = app.db as unknown as AnyDb;
  const maxBytes = app.config.cdn?.importMaxBytes ?? DEFAULT_IMPORT_MAX_BYTES;
  const read = app.requirePermission('cloud', 'read');
  const write = app.requirePermission('cloud', 'write');

  // This plugin's scope only: the raw body reaches the handler as the request stream.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(RAW_TYPES, (_request, payload, done) => done(null, payload));
  // Multipart from the admin's upload button; the file is read as a stream too. Its size
  // limit is on the compressed bytes; the decompressed limit is readLog's.
  const upload: UploadLimit = { field: 'file', maxBytes, what: '日志' };
  await registerUploads(app, [upload]);

  /** The log's summary; a stream that breaks off (or bad gzip) is the uploader's 422. */
  async function summarise(source: AsyncIterable<Buffer>): Promise<Awaited<ReturnType<typeof readLog>>> {
    try {
      return await readLog(source, maxBytes);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw invalidInput({ file: '日志文件读取失败，请重新上传' }, '日志文件读取失败，请重新上传');
    }
  }

  async function liveDomain(idText: string): Promise<{ id: number; domain: string }> {
    const id = parseId(idText);
    const row =
      id === null
        ? undefined
        : await db
            .selectFrom('cdn_domains')
            .select(['id', 'domain'])
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
    if (!row) throw notFound('CDN 域名不存在或已删除');
    return { id: Number(row.id), domain: String(row.domain) };
  }

  app.post<{ Params: ImportParams; Querystring: ImportQuery }>(
    '/api/admin/cdnDomains/:id/import',
    {
      preHandler: write,
      schema: {
        tags: ['cloud'],
        summary: '导入访问日志（nginx combined 格式，纯文本或 gzip）',
        description:
          '请求体为日志文件本身（`application/octet-stream`、`application/gzip` 或 `text/plain`），' +
          '或 `multipart/form-data` 的字段 `file`。是否 gzip 按文件开头的字节判断。' +
          '流式解析，按小时汇总请求数、流量、缓存命中/未命中（行尾带 `$upstream_cache_status` 时）和状态码分类，' +
          '一次导入一个事务：失败时什么也不写入。\n\n' +
          '**同一文件不重复计数**：以（域名，解压后内容的 SHA-256）为唯一键；再次导入同一文件答 200、' +
          '`alreadyImported: true` 和上次导入的结果，用量不变。部分重叠的两个不同文件按文件去重，重叠部分会计两次。\n\n' +
          '格式错误的行计数并返回前 5 条（行号、原因），不影响其余行。解压后大小上限 `CDN_IMPORT_MAX_MB`（默认 2048 MB）。',
        security: bearerSecurity,
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        querystring: {
          type: 'object',
          properties: {
            fileName: { type: 'string', maxLength: 255, description: '原文件名（仅用于导入记录）' },
          },
        },
        consumes: [...RAW_TYPES, 'multipart/form-data'],
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: { alreadyImported: { type: 'boolean' }, import: importSchema },
          }),
          ...authFailureResponses,
          404: { description: '域名不存在', ...failureEnvelopeSchema },
          413: { description: '文件过大', ...failureEnvelopeSchema },
          422: { description: '没有文件或 gzip 损坏', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const domain = await liveDomain(request.params.id);
      let fileName = request.query.fileName?.trim() || null;
      let summary: Awaited<ReturnType<typeof readLog>>;
      if (request.isMultipart()) {
        summary = await streamUpload(request, upload, (file, name) => {
          fileName = fileName ?? (name || null);
          return summarise(file);
        });
      } else {
        const body = request.body as AsyncIterable<Buffer> | undefined | null;
        if (
          !body ||
          typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function'
        )
          throw invalidInput(
            { file: '请求体须为日志文件（application/octet-stream）' },
            '请求体须为日志文件',
          );
        summary = await summarise(body);
      }
      if (summary.lines === 0) throw invalidInput({ file: '日志文件是空的' }, '日志文件是空的');
      const outcome = await recordImport(db, {
        domainId: domain.id,
        fileName: fileName?.slice(0, 255) ?? null,
        userId: request.user?.id ?? null,
        now: app.config.now(),
        summary,
      });
      outcome.import.domain = domain.domain;
      if (outcome.alreadyImported) {
        return ok(outcome, `该日志文件已于 ${chinaTime(outcome.import.at)} 导入过，未重复计数`);
      }
      bumpVersion(app.db, 'cdnUsage');
      const i = outcome.import;
      return ok(
        outcome,
        i.malformed > 0
          ? `导入完成：${i.lines} 行，其中 ${i.malformed} 行格式错误未计入`
          : `导入完成：${i.lines} 行，涉及 ${i.hours} 个小时`,
      );
    },
  );

  app.get<{ Querystring: { domainId?: string; limit?: number; before?: string } }>(
    '/api/admin/cdnImports',
    {
      preHandler: read,
      schema: {
        tags: ['cloud'],
        summary: '访问日志导入记录（最新的在前）',
        security: bearerSecurity,
        querystring: {
          type: 'object',
          properties: {
            domainId: { type: 'string', description: '只看某个域名的导入' },
            limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            before: { type: 'string', description: '翻页：只返回 id 小于它的记录' },
          },
        },
        response: {
          200: successEnvelopeSchema({ type: 'array', items: importSchema }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const domainId = q.domainId ? parseId(q.domainId) : undefined;
      if (domainId === null) throw invalidInput({ domainId: '域名编号无效' });
      const before = q.before ? parseId(q.before) : undefined;
      if (before === null) throw invalidInput({ before: '翻页参数无效' });
      return ok(await listImports(db, { domainId, limit: q.limit ?? 50, before }));
    },
  );

  app.get<{ Querystring: { domainIds?: string; from: string; to: string } }>(
    '/api/admin/cdnUsage/hourly',
    {
      preHandler: read,
      schema: {
        tags: ['cloud'],
        summary: 'CDN 用量按小时汇总（可多个域名合计）',
        description:
          '返回 [from, to) 内每个小时（含没有数据的小时，计 0）的请求数、流量、命中率、状态码分类，多个域名相加；' +
          '命中率由命中/未命中数重新计算，没有缓存状态数据时为 null（未知）。时段最长 92 天。',
        security: bearerSecurity,
        querystring: {
          type: 'object',
          required: ['from', 'to'],
          properties: {
            domainIds: { type: 'string', description: '逗号分隔的域名编号；不填为全部域名' },
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
          },
        },
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              hours: { type: 'array', items: hourSchema },
              totals: { type: 'object', properties: hourSchema.properties },
            },
          }),
          ...authFailureResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const from = Date.parse(q.from);
      const to = Date.parse(q.to);
      if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from)
        throw invalidInput({ from: '请选择有效的时段（开始早于结束）' }, '请选择有效的时段');
      if (to - from > MAX_SERIES_MS) throw invalidInput({ from: '时段最长 92 天' }, '时段最长 92 天');
      let ids: number[] | undefined;
      if (q.domainIds?.trim()) {
        ids = q.domainIds.split(',').map((s) => parseId(s.trim()) ?? Number.NaN);
        if (ids.some((id) => Number.isNaN(id)) || ids.length > 100)
          throw invalidInput({ domainIds: '域名编号无效' });
      }
      return ok(await hourlySeries(db, ids, hourStartOf(from), to));
    },
  );
};

function chinaTime(iso: string): string {
  return new Date(Date.parse(iso) + 8 * HOUR_MS).toISOString().slice(0, 16).replace('T', ' ');
}

const COUNTS = [
  'requests',
  'bytes',
  'hits',
  'misses',
  'status2xx',
  'status3xx',
  'status4xx',
  'status5xx',
] as const;
type Counts = Record<(typeof COUNTS)[number], number>;

async function hourlySeries(db: AnyDb, ids: number[] | undefined, from: number, to: number) {
  let q = db
    .selectFrom('cdn_usage')
    .select(['hour', ...COUNTS])
    .where('hour', '>=', from)
    .where('hour', '<', to);
  if (ids) q = q.where('domain_id', 'in', ids.length > 0 ? ids : [0]);
  const rows = (await q.execute()) as Record<string, unknown>[];
  const byHour = new Map<number, Counts>();
  const zero = (): Counts => ({
    requests: 0,
    bytes: 0,
    hits: 0,
    misses: 0,
    status2xx: 0,
    status3xx: 0,
    status4xx: 0,
    status5xx: 0,
  });
  for (const row of rows) {
    const hour = Number(row.hour);
    const sum = byHour.get(hour) ?? zero();
    for (const c of COUNTS) sum[c] += Number(row[c] ?? 0);
    byHour.set(hour, sum);
  }
  const hours = [];
  const totals = zero();
  for (let hour = from; hour < to; hour += HOUR_MS) {
    const sum = byHour.get(hour) ?? zero();
    for (const c of COUNTS) totals[c] += sum[c];
    hours.push({ hour: new Date(hour).toISOString(), ...sum, hitRatio: hitRatioOf(sum.hits, sum.misses) });
  }
  return {
    hours,
    totals: {
      hour: new Date(from).toISOString(),
      ...totals,
      hitRatio: hitRatioOf(totals.hits, totals.misses),
    },
  };
}
