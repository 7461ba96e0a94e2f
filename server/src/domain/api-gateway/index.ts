/**
 * The API-market gateway (DOMAIN.md "API market"): `/cloud/api/{code}` serves the platform's
 * tools to API keys, with quotas, a per-minute rate limit and metering; the daily stats the
 * admin charts read. README.md has the decisions.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { DomainArea } from '../area.js';
import { gatewayHandler } from './gateway.js';
import { gatewayTasks } from './housekeeping.js';
import { statsRoutes } from './stats.js';

const gatewayRoutes: FastifyPluginAsync = async (app) => {
  const handler = gatewayHandler(app);
  const schema = {
    tags: ['apiMarket'],
    summary: 'API 市场网关',
    description:
      '以 API Key（请求头 X-Api-Key 或参数 apikey）调用平台工具：totp（{secret, code} → {valid, delta}）、' +
      'sslCheck（{host, port?, starttls?, servername?} → 证书检测结论）、palette（{color} → 10 级色板、HEX/RGB/HSL、对比度）、' +
      'docSearch（{q, categoryId?, validity?, page?, limit?} → 文档检索结果）。参数取自查询串与 JSON 请求体（请求体优先）。' +
      '401 缺少/无效/已吊销的 Key；403 接口停用或 Key 无权调用；404 接口不存在；405 请求方法不符；' +
      '429 超出每分钟限流或额度用尽（Retry-After）；每个带 Key 的应答含 X-RateLimit-Limit/Remaining/Reset（Reset 为窗口结束的 Unix 秒）。',
    params: { type: 'object', properties: { code: { type: 'string' } } },
  };
  // Input is read by each tool with Chinese messages (422), not by a route schema.
  const options = { schema, validatorCompiler: () => () => true };
  app.all('/cloud/api/:code', options, handler);
  app.all('/cloud/api/:code/*', options, handler);
  await app.register(statsRoutes);
};

export const apiGatewayArea: DomainArea = {
  name: 'apiGateway',
  routes: fp(gatewayRoutes, { name: 'wanxiang-api-gateway', dependencies: ['wanxiang-database'] }),
  tasks: gatewayTasks,
};
