/**
 * The OpenAPI 3 document of every route, built from the routes' own JSON schemas, at
 * GET /api/openapi.json. It is served as the bare document (not in the envelope) so that
 * OpenAPI tools can read it directly. Register this before any route so all are collected.
 */
import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

export const openApiPlugin = fp<{ version: string }>(
  async (app, { version }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: '万象 API',
          version,
          description:
            '万象的 JSON 接口。所有回答都是信封：成功 `{success: true, data, message?}`，' +
            '失败 `{success: false, errorCode, message, data?: {fields?}}`（见 API.md）。',
        },
        tags: [
          { name: 'auth', description: '登录与会话' },
          { name: 'public', description: '无需登录' },
          { name: 'admin', description: '后台（需要角色权限）' },
        ],
        components: {
          securitySchemes: {
            bearerAuth: { type: 'http', scheme: 'bearer', description: '登录返回的 token' },
          },
        },
      },
    });

    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'wanxiang-openapi' },
);
