/**
 * GET /api/files/:id — stored files with their Content-Type, HTTP Range (audio and video seek)
 * and a year of immutable caching (an id is a content hash: new bytes, new id).
 *
 * Access: a file id is an unguessable 128-bit content hash handed out only inside answers its
 * reader may see, so the URL itself is the capability (as with object-store links). Per-resource
 * checks for files of login-only screens (music, movies) arrive with those screens.
 */
import send from '@fastify/send';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError, notFound } from '../http/envelope.js';
import { blobPath, contentTypeOf, uploadsDir } from './blob-store.js';

export const filesRoutes: FastifyPluginAsync = async (app) => {
  const root = uploadsDir(app.config.dataDir);

  app.get<{ Params: { id: string } }>(
    '/api/files/:id',
    {
      schema: {
        tags: ['files'],
        summary: '读取文件（支持 Range）',
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
      },
    },
    async (request, reply) => {
      const file = blobPath(app.config.dataDir, request.params.id);
      if (!file) throw notFound();
      const result = await send(request.raw, file.slice(root.length), {
        root,
        dotfiles: 'deny',
        immutable: true,
        maxAge: '365d',
        lastModified: false,
      });
      if (result.type === 'error' && result.statusCode === 416) {
        // Carries `Content-Range: bytes */<size>` so a player can ask again correctly.
        const contentRange = result.headers['content-range'];
        throw new ApiError({
          status: 416,
          errorCode: 416,
          message: '请求的范围超出文件大小',
          ...(contentRange ? { headers: { 'content-range': contentRange } } : {}),
        });
      }
      if (result.type !== 'file') throw notFound();
      // The error catalogue's /api no-store would defeat the cache: files are not API answers.
      reply.headers(result.headers);
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('content-type', contentTypeOf(request.params.id));
      return reply.code(result.statusCode).send(result.stream);
    },
  );
};
