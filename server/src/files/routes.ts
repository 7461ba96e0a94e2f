/**
 * GET /api/files/:id — stored files with their Content-Type, HTTP Range (audio and video seek)
 * and a year of immutable caching (an id is a content hash: new bytes, new id).
 *
 * Access: a file id is an unguessable 128-bit content hash handed out only inside answers its
 * reader may see, so the URL itself is the capability (as with object-store links). Per-resource
 * checks for files of login-only screens (music, movies) arrive with those screens.
 *
 * Also shares the blob store with every area as `app.blobs` (BLOB_STORE: blob-store.ts). Both
 * stores hand this route a file on this machine (the database store its local copy), so the
 * headers are the same whichever is configured.
 */
import send from '@fastify/send';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, notFound } from '../http/envelope.js';
import { type BlobStore, contentTypeOf, FolderBlobStore, uploadsDir } from './blob-store.js';
import { DatabaseBlobStore } from './database-blobs.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploads are stored and read: `await app.blobs.put(bytes, 'jpg')`. */
    blobs: BlobStore;
  }
}

const routes: FastifyPluginAsync = async (app) => {
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
      const file = await app.blobs.localFile(request.params.id);
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

export const filesRoutes = fp(
  async (app) => {
    const database = app.config.blobStore === 'database';
    const blobs: BlobStore = database
      ? new DatabaseBlobStore(app.db, app.config.dataDir, app.config.now)
      : new FolderBlobStore(app.config.dataDir);
    app.decorate('blobs', blobs);
    if (blobs instanceof DatabaseBlobStore) {
      // Files of the folder store this install used before, copied once at start: not awaited,
      // the process serves them from the folder meanwhile (database-blobs.ts).
      app.addHook('onReady', async () => {
        blobs
          .importFolder()
          .then((n) => n > 0 && app.log.info({ files: n }, 'uploads folder copied into the database'))
          .catch((err) => app.log.warn({ err }, 'copying the uploads folder into the database failed'));
      });
    }
    await app.register(routes);
  },
  { name: 'wanxiang-files', dependencies: ['wanxiang-database'] },
);
