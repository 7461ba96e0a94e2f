/**
 * The generic routes of API.md "Resources (admin)", generated for every definition of the
 * registry — no route file per resource:
 *
 *   GET    /api/admin/R                 list           <area>:read
 *   GET    /api/admin/R/export          csv | ndjson   <area>:read
 *   GET    /api/admin/R/{id}            one row        <area>:read
 *   POST   /api/admin/R                 create         <area>:write
 *   PATCH  /api/admin/R/{id}            update         <area>:write
 *   DELETE /api/admin/R/{id}            delete         <area>:write
 *   POST   /api/admin/R/{id}/{action}   action         <area>:write
 *
 * The permission is checked first (403 没有权限执行此操作). A method the resource does not offer
 * (readOnly, noCreate, noDelete) then answers 403 此资源不支持该操作 rather than 405, so a client
 * needs one rule for "you cannot do that here"; the route exists, so it is not a 404.
 */
import { collectionActions, type ResourceDef, rowActions } from '@wanxiang/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidInput, JSON_CONTENT_TYPE, JsonText, ok, okBytes } from '../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../http/schemas.js';
import type { RawQuery, ResourceEngine } from './engine.js';
import { contentDisposition, exportFileName } from './export/file-name.js';
import type { ExportFormat } from './export/producer.js';
import { exportStream } from './export/stream.js';
import { bodySchema, listQuerySchema, rowSchema } from './openapi.js';
import { MAX_ROW_ID, parseId } from './query.js';

const failures = {
  ...authFailureResponses,
  404: { description: '记录不存在', ...failureEnvelopeSchema },
  409: { description: '唯一值重复、状态不允许或数据已被修改', ...failureEnvelopeSchema },
  422: { description: '输入有误（data.fields 按字段说明）', ...failureEnvelopeSchema },
} as const;

/** Schemas here document; core's zod validation is the only check (see openapi.ts). */
const documentOnly = () => () => true;

type IdParams = { id: string };
type ActionParams = { id: string; action: string };

/**
 * Work outside the database before or after the transaction (an outbound check, a printer, a
 * password hash): such a write does not take an admission slot (http/admission.ts), which it
 * would hold while waiting on something else.
 */
const worksOutside = (spec: { prepare?: unknown; afterCommit?: unknown } | undefined) =>
  Boolean(spec?.prepare || spec?.afterCommit);

const actorOf = (request: FastifyRequest) => ({ user: request.user, ip: request.ip });
const ifMatchOf = (request: FastifyRequest) => {
  const value = request.headers['if-match'];
  return typeof value === 'string' ? value : undefined;
};

function registerResource(app: FastifyInstance, engine: ResourceEngine, def: ResourceDef): void {
  const base = `/api/admin/${def.name}`;
  const read = app.requirePermission(def.area, 'read');
  const write = app.requirePermission(def.area, 'write');
  const row = rowSchema(def);
  const tags = ['resources'];
  const common = { tags, security: bearerSecurity };
  const idParam = {
    type: 'object',
    properties: { id: { type: 'integer', minimum: 1, maximum: MAX_ROW_ID } },
  };
  const hooks = engine.extensions.hooksOf(def.name);
  const admitted = (outside: boolean) => (outside ? write : [write, app.admit]);
  /** A row action is admitted unless its handler works outside the database. */
  const admitAction = async (
    request: FastifyRequest<{ Params: { action: string } }>,
    reply: FastifyReply,
  ) => {
    if (!worksOutside(engine.extensions.handler(def.name, request.params.action)))
      await app.admit.call(app, request, reply);
  };

  app.get(
    base,
    {
      preHandler: [read, app.admit],
      validatorCompiler: documentOnly,
      schema: {
        ...common,
        summary: `${def.title}：列表`,
        description: `需要 ${def.area}:read。`,
        querystring: listQuerySchema(def),
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              results: { type: 'array', items: row },
              page: {
                type: 'object',
                properties: {
                  total: { type: 'integer', description: '符合条件的总数；withTotal=false 时为 -1' },
                  page: { type: 'integer' },
                  limit: { type: 'integer' },
                  nextCursor: {
                    type: 'string',
                    nullable: true,
                    description: '本页已满时给出，传回 cursor 取下一页',
                  },
                },
              },
              relations: {
                type: 'object',
                description: '关联字段 → {id: 显示名}',
                additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
              },
            },
          }),
          ...failures,
        },
      },
    },
    async (request, reply) => {
      const { results, page, relations } = await engine.listJson(def, request.query as RawQuery);
      return reply.type(JSON_CONTENT_TYPE).send(okBytes({ results: new JsonText(results), page, relations }));
    },
  );

  app.get(
    `${base}/export`,
    {
      preHandler: read,
      validatorCompiler: documentOnly,
      schema: {
        ...common,
        summary: `${def.title}：导出`,
        description: `与列表相同的筛选，流式输出全部匹配的行。format=csv（UTF-8 BOM，中文表头）或 ndjson。需要 ${def.area}:read。`,
        querystring: {
          ...listQuerySchema(def),
          properties: {
            format: { type: 'string', enum: ['csv', 'ndjson'] },
            ...(listQuerySchema(def).properties as object),
          },
        },
        response: { 200: { description: 'text/csv 或 application/x-ndjson', type: 'string' }, ...failures },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const { format = 'csv', ...filters } = request.query as Record<string, string | string[] | undefined>;
      if (format !== 'csv' && format !== 'ndjson')
        throw invalidInput({ format: '导出格式须为 csv 或 ndjson' });
      // The stream goes straight into the response: what that holds is all that is not sent.
      const stream = await exportStream(
        engine,
        def,
        filters,
        format as ExportFormat,
        () => reply.raw.writableLength,
      );
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header(
          'content-disposition',
          contentDisposition(exportFileName(def, format as ExportFormat), format as ExportFormat),
        )
        .send(stream);
    },
  );

  app.get<{ Params: IdParams }>(
    `${base}/:id`,
    {
      preHandler: [read, app.admit],
      validatorCompiler: documentOnly,
      schema: {
        ...common,
        summary: `${def.title}：详情`,
        params: idParam,
        response: { 200: successEnvelopeSchema(row), ...failures },
      },
    },
    async (request) => ok(await engine.get(def, parseId(request.params.id))),
  );

  const creator = engine.extensions.creator(def.name);
  const createdRow = withAnswerProperties(row, creator?.answerProperties);
  app.post(
    base,
    {
      preHandler: admitted(worksOutside(creator) || worksOutside(hooks)),
      validatorCompiler: documentOnly,
      schema: {
        ...common,
        summary: `${def.title}：新建`,
        description: creator
          ? `需要 ${def.area}:write。${creator.description ?? ''}`
          : `需要 ${def.area}:write。${def.readOnly || def.noCreate ? '此资源不支持新建（403）。' : ''}`,
        body: creator?.bodySchema ?? bodySchema(def, 'create'),
        response: { 200: successEnvelopeSchema(createdRow), ...failures },
      },
    },
    async (request) => ok(await engine.create(def, request.body, actorOf(request)), '创建成功'),
  );

  app.patch<{ Params: IdParams }>(
    `${base}/:id`,
    {
      preHandler: admitted(worksOutside(hooks)),
      validatorCompiler: documentOnly,
      schema: {
        ...common,
        summary: `${def.title}：修改`,
        description: '部分更新。If-Match 头或 body.updatedAt 与当前不同则 409。',
        params: idParam,
        body: bodySchema(def, 'update'),
        response: { 200: successEnvelopeSchema(row), ...failures },
      },
    },
    async (request) =>
      ok(
        await engine.update(
          def,
          parseId(request.params.id),
          request.body,
          actorOf(request),
          ifMatchOf(request),
        ),
        '保存成功',
      ),
  );

  app.delete<{ Params: IdParams }>(
    `${base}/:id`,
    {
      preHandler: [write, app.admit],
      validatorCompiler: documentOnly,
      schema: {
        ...common,
        summary: `${def.title}：删除`,
        description: def.softDelete
          ? '软删除：保留记录，列表与详情不再显示。'
          : '删除；仍被其他记录引用时 409。',
        params: idParam,
        response: { 200: successEnvelopeSchema({ type: 'null' }), ...failures },
      },
    },
    async (request) => {
      await engine.remove(def, parseId(request.params.id), actorOf(request));
      return ok(null, '删除成功');
    },
  );

  const collection = collectionActions(def);
  if (collection.length > 0) {
    app.post<{ Params: { action: string } }>(
      `${base}/:action`,
      {
        // A collection handler runs inside its transaction: database work only.
        preHandler: [write, app.admit],
        validatorCompiler: documentOnly,
        schema: {
          ...common,
          summary: `${def.title}：批量操作（${collection.map((a) => `${a.name} ${a.label}`).join('，')}）`,
          description: `对整个资源的操作，body 为操作参数。需要 ${def.area}:write。`,
          params: {
            type: 'object',
            properties: { action: { type: 'string', enum: collection.map((a) => a.name) } },
          },
          response: { 200: successEnvelopeSchema({}), ...failures },
        },
      },
      async (request) => {
        const { action } = request.params;
        const label = collection.find((a) => a.name === action)?.label;
        const result = await engine.collectionAction(def, action, request.body, actorOf(request));
        return ok(result, label ? `${label}成功` : undefined);
      },
    );
  }

  if (rowActions(def).length > 0) {
    const actions = rowActions(def);
    const actedRow = withAnswerProperties(
      row,
      Object.assign({}, ...actions.map((a) => engine.extensions.handler(def.name, a.name)?.answerProperties)),
    );
    app.post<{ Params: ActionParams }>(
      `${base}/:id/:action`,
      {
        preHandler: [write, admitAction],
        validatorCompiler: documentOnly,
        schema: {
          ...common,
          summary: `${def.title}：操作（${actions.map((a) => `${a.name} ${a.label}`).join('，')}）`,
          description: '状态不允许时 409 当前状态不能执行此操作。',
          params: {
            type: 'object',
            properties: {
              id: { type: 'integer', minimum: 1 },
              action: { type: 'string', enum: actions.map((a) => a.name) },
            },
          },
          response: { 200: successEnvelopeSchema(actedRow), ...failures },
        },
      },
      async (request) => {
        const { id, action } = request.params;
        const result = await engine.action(
          def,
          parseId(id),
          action,
          request.body,
          actorOf(request),
          ifMatchOf(request),
        );
        return ok(result, engine.actionMessage(def, action, result));
      },
    );
  }
}

/** A row's schema with what a handler's answer adds (an API key shown once); the row itself without any. */
function withAnswerProperties(row: object, extra: Record<string, object> | undefined): object {
  if (!extra || Object.keys(extra).length === 0) return row;
  const schema = row as { properties?: Record<string, object> };
  return { ...row, properties: { ...schema.properties, ...extra } };
}

export function registerResourceRoutes(app: FastifyInstance, engine: ResourceEngine): void {
  for (const def of engine.resources) registerResource(app, engine, def);
}
