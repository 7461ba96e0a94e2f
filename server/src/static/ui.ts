/**
 * Serves the built UI, so one process on one port is the whole product. Hashed assets under
 * /assets are cached for a year (their names change with their content); everything else,
 * index.html above all, is revalidated so a deploy shows at once. Any other GET outside the API
 * answers index.html, with 200 where core's route table has a screen and 404 where the UI shows
 * its 404 screen; API paths (/api, the gateway's /cloud/api/…) that match nothing answer the JSON
 * 404. This plugin owns the app's not-found handler for that reason.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { siteAreaOf } from '@wanxiang/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendApiNotFound } from '../http/errors.js';
import { isApiPath } from '../http/security.js';
import { IndexHtml } from './index-html.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Around the public home's preloads in the built index.html (ui/vite.config.ts
 * `preloadPublicHome`). Only the public pages get them: elsewhere their stylesheets would go
 * unused, which Chromium warns about in the console of every back-office load.
 */
const PUBLIC_PRELOADS = /\s*<!-- public-home-preload -->[\s\S]*?<!-- \/public-home-preload -->/;

/** Whether a path's last segment names a file (has an extension), as the build's files do. */
function isFileName(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last.includes('.');
}

function pathnameOf(url: string): string {
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

export const uiPlugin = fp<{ uiDist: string | null }>(
  async (app, { uiDist }) => {
    const root = uiDist && existsSync(path.join(uiDist, 'index.html')) ? path.resolve(uiDist) : null;
    const assetsDir = root ? path.join(root, 'assets') + path.sep : null;
    const index = new IndexHtml(root ?? '.', PUBLIC_PRELOADS);

    if (root) {
      await app.register(fastifyStatic, {
        root,
        index: ['index.html'],
        // Files are looked up per request, so a rebuilt UI is served without a restart.
        wildcard: true,
        // The build writes .br and .gz beside each file (ui/vite.config.ts): sent when accepted.
        preCompressed: true,
        cacheControl: false,
        // Only names with an extension are files of the build (assets, favicon.svg, robots.txt):
        // a screen's URL (`/`, `/doc/search`) goes straight to the not-found handler below, which
        // answers index.html from memory, without a lookup on disk first (index-html.ts).
        allowedPath: (pathname) => isFileName(pathname),
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

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
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
      const area = siteAreaOf(pathnameOf(request.url));
      if (area === 'public') {
        const copy = index.publicCopy(request.headers['accept-encoding']);
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', REVALIDATE)
          .header('vary', 'accept-encoding')
          .header('etag', copy.etag)
          .header('last-modified', copy.lastModified);
        if (request.headers['if-none-match'] === copy.etag) return reply.code(304).send();
        if (copy.encoding) reply.header('content-encoding', copy.encoding);
        return reply.send(copy.body);
      }
      return reply
        .code(area === null ? 404 : 200)
        .type('text/html; charset=utf-8')
        .header('cache-control', REVALIDATE)
        .send(index.screenCopy());
    });
  },
  { name: 'wanxiang-ui' },
);
