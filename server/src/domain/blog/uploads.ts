/**
 * POST /api/admin/uploads?resource=<name> — one image as multipart/form-data (field `file`), for
 * the image fields of the admin forms (photos.image, articles.cover, …). Allowed to whoever may
 * write `<name>` (its area's write permission); the answer's `url` is what the field stores.
 * Limits and checks: README.md "Uploads".
 */
import { type FieldDef, RESOURCES, type ResourceDef } from '@wanxiang/core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { readUpload, registerUploads, type UploadLimit } from '../../files/uploads.js';
import { invalidInput, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import type { AnyDb } from '../../resources/extensions.js';
import { MAX_IMAGE_BYTES, storeImage, THUMB_WIDTH } from './images.js';

const IMAGE: UploadLimit = { field: 'file', maxBytes: MAX_IMAGE_BYTES, what: '图片' };

/** The resources an image may be uploaded for: those with an image field. */
function imageResource(name: string | undefined): ResourceDef | undefined {
  const def = RESOURCES.find((r) => r.name === name);
  if (!def) return undefined;
  return Object.values(def.fields as Record<string, FieldDef>).some((f) => f.type === 'image')
    ? def
    : undefined;
}

const imageSchema = {
  type: 'object',
  required: ['id', 'url', 'contentType', 'bytes', 'width', 'height', 'thumbnail'],
  properties: {
    id: { type: 'string', description: '文件 id（内容哈希 + 扩展名）' },
    url: { type: 'string', description: '/api/files/{id}，图片字段保存这个地址' },
    contentType: { type: 'string', enum: ['image/jpeg', 'image/png', 'image/webp'] },
    bytes: { type: 'integer' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    thumbnail: {
      type: 'object',
      description: `缩略图：WebP，宽 ${THUMB_WIDTH} 像素（原图更窄时与原图同宽）`,
      properties: {
        id: { type: 'string' },
        url: { type: 'string' },
        width: { type: 'integer' },
        height: { type: 'integer' },
      },
    },
  },
} as const;

export const uploadRoutes: FastifyPluginAsync = async (app) => {
  const db = app.db as unknown as AnyDb;
  // Encapsulated in this plugin: no other route accepts multipart bodies.
  await registerUploads(app, [IMAGE]);

  async function checkPermission(
    request: FastifyRequest<{ Querystring: { resource: string } }>,
    reply: FastifyReply,
  ) {
    const def = imageResource(request.query.resource);
    // Signed in first: an anonymous caller learns nothing about which resources exist.
    await app.requireUser.call(app, request, reply);
    if (!def) throw invalidInput({ resource: '该资源没有可上传的图片字段' });
    await app.requirePermission(def.area, 'write').call(app, request, reply);
  }

  app.post<{ Querystring: { resource: string } }>(
    '/api/admin/uploads',
    {
      preHandler: checkPermission,
      schema: {
        tags: ['admin'],
        summary: '上传图片（JPEG/PNG/WebP/GIF，最大 10 MB），生成缩略图',
        description:
          '`multipart/form-data`，文件放在字段 `file`。类型按文件内容判断（不看文件名）；' +
          'GIF 转为 WebP；照片的 EXIF（含定位）被去除、方向被校正。需要该资源所在模块的写权限。',
        security: bearerSecurity,
        querystring: {
          type: 'object',
          required: ['resource'],
          properties: {
            resource: {
              type: 'string',
              title: '资源',
              maxLength: 50,
              description: '图片属于哪个资源，如 photos、articles',
            },
          },
        },
        consumes: ['multipart/form-data'],
        response: {
          200: successEnvelopeSchema(imageSchema),
          ...authFailureResponses,
          413: { description: '文件过大', ...failureEnvelopeSchema },
          422: { description: '没有文件、类型不支持或图片损坏', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      const data = await readUpload(request, IMAGE);
      const stored = await storeImage(db, app.blobs, data, app.config.now());
      return ok(stored, '上传成功');
    },
  );
};
