/** GET /api/public/config — what the UI needs before anyone signs in. */
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.js';
import { successEnvelopeSchema } from '../../http/schemas.js';
import { publicConfig } from './store.js';

const publicConfigSchema = {
  type: 'object',
  required: ['productName', 'pageTitle', 'copyright', 'version', 'wsHost', 'apiHost', 'allowRegistration'],
  properties: {
    productName: { type: 'string' },
    pageTitle: { type: 'string', description: '未设置时等于 productName' },
    copyright: { type: 'string' },
    version: { type: 'string', description: '构建版本（提交哈希）' },
    wsHost: { type: 'string', description: '空字符串表示与页面同源' },
    apiHost: { type: 'string', description: '空字符串表示与页面同源' },
    allowRegistration: { type: 'boolean' },
  },
} as const;

export const platformConfigRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/public/config',
    {
      schema: {
        tags: ['public'],
        summary: '公开的平台配置',
        response: { 200: successEnvelopeSchema(publicConfigSchema) },
      },
    },
    async () => ok(await publicConfig(app.db, app.config.version)),
  );
};
