/** GET /api/admin/dashboard — the figures under the /admin heading, those of the areas the user may read. */
import { DASHBOARD_PATH, type Dashboard, dashboardFiguresFor } from '@wanxiang/core';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.js';
import { authFailureResponses, bearerSecurity, successEnvelopeSchema } from '../../http/schemas.js';
import { signedIn } from '../auth/auth-plugin.js';
import { type FigureSource, readFigures } from './figures.js';

const count = (description: string) => ({ type: 'integer', description }) as const;
const comparison = (description: string) =>
  ({
    type: 'object',
    description,
    properties: {
      today: { type: 'integer', description: '今天 0 点至此刻' },
      yesterday: { type: 'integer', description: '昨天 0 点至昨天的同一时刻' },
    },
  }) as const;

const dashboardSchema = {
  type: 'object',
  description: '只含用户有读权限的区域的数字；没有的键即不显示的卡片（不是 0）。时间为中国时间。',
  properties: {
    at: { type: 'integer', description: '读取时刻（epoch ms）' },
    ordersToday: comparison('今日订单：今天支付的订单数（oms:read）'),
    revenueTodayFen: comparison('今日营业额（分）：今天支付的订单实付之和，同收入统计（finance:read）'),
    awaitingAcceptance: count('待接单：已支付、商家未接单的订单（oms:read）'),
    awaitingRunner: count('待派单：等待骑手的配送单（runner:read）'),
    pendingRefunds: count('待处理退款：未处理的退款申请（oms:read）'),
  },
} as const;

export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    DASHBOARD_PATH,
    {
      preHandler: [app.requireUser, app.admit],
      schema: {
        tags: ['admin'],
        summary: '后台首页的数字（按用户的读权限给出）',
        description:
          '监控区域（任务异常、证书即将到期）在监控任务上线后加入，之前不给出。需要登录，数字各自需要其区域的读权限。',
        security: bearerSecurity,
        response: { 200: successEnvelopeSchema(dashboardSchema), ...authFailureResponses },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      const source: FigureSource = { db: app.db, read: app.resources.read, now: app.config.now() };
      const answer: Dashboard = {
        at: source.now,
        ...(await readFigures(source, dashboardFiguresFor(user.permissions))),
      };
      return ok(answer);
    },
  );
};
