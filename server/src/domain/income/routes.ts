/**
 * GET /api/admin/income — the 收入统计 figures (finance:read) — and GET /api/admin/income/export,
 * the same table as CSV. What the figures mean is core's (core/src/income); how they are read is
 * sums.ts; this file checks the query and answers.
 */
import {
  buildIncomeReport,
  chinaDayOf,
  INCOME_EXPORT_PATH,
  INCOME_PATH,
  INCOME_TABLE_VIEWS,
  type IncomeReport,
  type IncomeTableView,
  incomeTableText,
  MAX_PERIODS,
  parseIncomeQuery,
  type ResolvedIncomeQuery,
} from '@wanxiang/core';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { invalidInput, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { csvCell, inert } from '../../resources/export/csv-text.js';
import { contentDisposition } from '../../resources/export/file-name.js';
import { refundsByDay, type SumsSource, salesByDay, storesOf } from './sums.js';

const integer = { type: 'integer' } as const;
const fen = (description: string) => ({ type: 'integer', description: `${description}（分）` }) as const;
const figures = {
  revenueFen: fen('营业额：期间内支付的订单的实付金额之和（按支付时间）'),
  orders: { ...integer, description: '订单数：期间内支付的订单数' },
  refundsFen: fen('退款：期间内退款成功的金额之和（按退款时间）'),
  netFen: fen('净收入 = 营业额 − 退款，可为负'),
  avgTicketFen: fen('客单价 = 营业额 ÷ 订单数，取整到分（四舍五入），无订单为 0'),
} as const;

const reportSchema = {
  type: 'object',
  properties: {
    granularity: { type: 'string', enum: ['day', 'week', 'month'] },
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date', description: '晚于今天的结束日期按今天计' },
    storeId: { type: 'integer', nullable: true },
    series: {
      type: 'array',
      description: '按期间，每个期间一行（无订单的期间为 0，不省略）',
      items: {
        type: 'object',
        properties: {
          period: { type: 'string', description: '日、周（周一）为 YYYY-MM-DD，月为 YYYY-MM' },
          from: { type: 'string', format: 'date', description: '期间在查询范围内的第一天' },
          to: { type: 'string', format: 'date', description: '期间在查询范围内的最后一天' },
          ...figures,
        },
      },
    },
    byStore: {
      type: 'array',
      description: '按门店（未删除的门店都列出，按营业额从高到低）',
      items: {
        type: 'object',
        properties: {
          storeId: { type: 'integer', nullable: true },
          storeName: { type: 'string' },
          ...figures,
        },
      },
    },
    totals: { type: 'object', properties: figures },
  },
} as const;

const querySchema = {
  type: 'object',
  properties: {
    granularity: {
      type: 'string',
      enum: ['day', 'week', 'month'],
      default: 'day',
      description: '日 / 周（周一开始）/ 月',
    },
    from: {
      type: 'string',
      format: 'date',
      description: '开始日期（中国时间，含）；默认：日 30 天、周 12 周、月 12 个月',
    },
    to: { type: 'string', format: 'date', description: '结束日期（含）；默认今天，晚于今天按今天计' },
    storeId: { type: 'integer', minimum: 1, description: '只看一个门店' },
  },
} as const;

const failures = {
  ...authFailureResponses,
  422: { description: '查询参数有误（data.fields 按参数说明）', ...failureEnvelopeSchema },
} as const;

/** Schemas here document; core's parseIncomeQuery is the check (its messages are Chinese). */
const documentOnly = () => () => true;

const DEFINITIONS =
  '营业额 = 期间内支付的订单实付之和（按支付时间，不减退款）；退款 = 期间内退款成功的金额之和（按退款时间）；' +
  '净收入 = 营业额 − 退款；订单数 = 期间内支付的订单数；客单价 = 营业额 ÷ 订单数（取整到分，四舍五入）。' +
  `日期为中国时间（UTC+8），周从周一开始；最多 ${MAX_PERIODS.day} 天、${MAX_PERIODS.week} 周或 ${MAX_PERIODS.month} 个月。` +
  '需要 finance:read。';

function sourceOf(app: FastifyInstance): SumsSource {
  return { db: app.db, read: app.resources.read, sliced: app.resources.reader !== null };
}

function queryOf(app: FastifyInstance, raw: Record<string, unknown>): ResolvedIncomeQuery {
  const parsed = parseIncomeQuery(raw, chinaDayOf(app.config.now()));
  if (!parsed.ok) throw invalidInput(parsed.fields);
  return parsed.query;
}

async function reportOf(app: FastifyInstance, query: ResolvedIncomeQuery): Promise<IncomeReport> {
  const source = sourceOf(app);
  // The store first: an unknown one is a 422 before any figure is read.
  if (query.storeId !== null && !(await storesOf(source, query, [])))
    throw invalidInput({ storeId: '所选的门店不存在' });
  const sales = await salesByDay(source, query);
  const refunds = await refundsByDay(source, query);
  const stores = await storesOf(
    source,
    query,
    [...sales, ...refunds].map((r) => r.storeId),
  );
  return buildIncomeReport(query, sales, refunds, stores ?? []);
}

/** The table as CSV: UTF-8 with a BOM and CRLF lines for spreadsheets, as the resource export. */
function csvOf(report: IncomeReport, view: IncomeTableView): string {
  const lines = incomeTableText(report, view).map((cells, i) =>
    // Labels (a store's name) may be anything; figures are plain numbers, negative ones too.
    cells.map((cell, j) => csvCell(i > 0 && j === 0 ? inert(cell) : cell)).join(','),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export const incomeRoutes: FastifyPluginAsync = async (app) => {
  const read = app.requirePermission('finance', 'read');

  app.get(
    INCOME_PATH,
    {
      preHandler: read,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['admin'],
        summary: '收入统计：营业额、订单数、退款、净收入、客单价，按日/周/月与按门店',
        description: DEFINITIONS,
        security: bearerSecurity,
        querystring: querySchema,
        response: { 200: successEnvelopeSchema(reportSchema), ...failures },
      },
    },
    async (request) => ok(await reportOf(app, queryOf(app, request.query as Record<string, unknown>))),
  );

  app.get(
    INCOME_EXPORT_PATH,
    {
      preHandler: read,
      validatorCompiler: documentOnly,
      schema: {
        tags: ['admin'],
        summary: '收入统计：导出 CSV',
        description:
          '与收入统计相同的查询；by=period（按期间，默认）或 store（按门店），末行为合计。' +
          'UTF-8 BOM，中文表头，金额为元（两位小数的数字）。需要 finance:read。',
        security: bearerSecurity,
        querystring: {
          ...querySchema,
          properties: {
            format: { type: 'string', enum: ['csv'], default: 'csv' },
            by: { type: 'string', enum: INCOME_TABLE_VIEWS, default: 'period' },
            ...querySchema.properties,
          },
        },
        response: { 200: { description: 'text/csv', type: 'string' }, ...failures },
      },
    },
    async (request, reply) => {
      const { format = 'csv', by = 'period', ...rest } = request.query as Record<string, unknown>;
      const fields: Record<string, string> = {};
      if (format !== 'csv') fields.format = '导出格式须为 csv';
      if (!(INCOME_TABLE_VIEWS as readonly unknown[]).includes(by))
        fields.by = '表格须为 period（按期间）或 store（按门店）';
      const parsed = parseIncomeQuery(rest, chinaDayOf(app.config.now()));
      if (!parsed.ok) Object.assign(fields, parsed.fields);
      if (Object.keys(fields).length > 0 || !parsed.ok) throw invalidInput(fields);
      const view = by as IncomeTableView;
      const report = await reportOf(app, parsed.query);
      const name = `收入统计_${view === 'store' ? '按门店_' : ''}${report.from}_${report.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(name, 'csv'))
        .send(csvOf(report, view));
    },
  );
};
