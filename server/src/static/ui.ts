/**
 * Serves the built UI, so one process on one port is the whole product. Hashed assets under
 * /assets are cached for a year (their names change with their content); everything else,
 * index.html above all, is revalidated so a deploy shows at once. Any other GET outside /api
 * answers index.html (the SPA's router decides), and /api paths that match nothing answer the
 * JSON 404. This plugin owns the app's not-found handler for that reason.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendApiNotFound } from '../http/errors.js';
import { isApiPath } from '../http/security.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export const uiPlugin = fp<{ uiDist: string | null }>(
  async (app, { uiDist }) => {
    const root = uiDist && existsSync(path.join(uiDist, 'index.html')) ? path.resolve(uiDist) : null;
    const assetsDir = root ? path.join(root, 'assets') + path.sep : null;

    if (root) {
      await app.register(fastifyStatic, {
        root,
        index: ['index.html'],
        // Files are looked up per request, so a rebuilt UI is served without a restart.
        wildcard: true,
        // The build writes .br and .gz beside each file (ui/vite.config.ts): sent when accepted.
        preCompressed: true,
        cacheControl: false,
        setHeaders(res, filePath) {
          res.setHeader(
            'cache-control',
            assetsDir && filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE,
          );
          // With pre-compressed copies one URL answers br, gzip or plain bytes: caches must keep
          // them apart (@fastify/static 9 does not say so itself).
          res.setHeader('vary', 'accept-encoding');
        },
      });
    } else {
      app.log.warn({ uiDist }, 'UI not built: only the API is served');
    }

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      if (isApiPath(request.url)) return sendApiNotFound(request, reply);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      }
      if (!root) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send(
            '万象界面尚未构建。The UI is not built: run `npm run build`, or set UI_DIST to the built UI folder. The API under /api works.\n',
          );
      }
      return reply.sendFile('index.html');
    });
  },
  { name: 'wanxiang-ui' },
);
