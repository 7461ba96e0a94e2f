/**
 * The one way an upload is read off a request, for every route that takes one (images, audio,
 * licence images, CDN logs). A multipart body can be malformed in many ways — cut off before its
 * closing boundary, no boundary, no file, the file in another field, two files, over the size
 * limit — and busboy reports each differently (an error thrown, a stream destroyed, a stream
 * silently truncated, a limit event). Each becomes here a 4xx with a Chinese message, before the
 * route stores anything; issue 18's attack run found routes that answered 500 for some of them.
 */
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalidInput } from '../http/envelope.js';

export interface UploadLimit {
  /** Form field name the file comes in. */
  field: string;
  maxBytes: number;
  /** For messages: 图片 / 音频 / 日志. */
  what: string;
}

/**
 * Registers the multipart parser on `scope` (an encapsulated plugin: no other route accepts
 * multipart bodies), its file limit the largest of the uploads it serves; each upload's own
 * limit is applied when it is read.
 */
export async function registerUploads(scope: FastifyInstance, limits: readonly UploadLimit[]): Promise<void> {
  const fileSize = Math.max(...limits.map((l) => l.maxBytes));
  await scope.register(multipart, {
    limits: { files: 1, fileSize, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 100 },
  });
}

const sizeText = (bytes: number) =>
  bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** 413, the wording of the admin form's own check (ui/src/resources/UploadInput.tsx). */
export const uploadTooLarge = (limit: UploadLimit) => {
  const message = `文件过大，${limit.what}最大 ${sizeText(limit.maxBytes)}`;
  return new ApiError({ status: 413, errorCode: 413, message, data: { fields: { [limit.field]: message } } });
};

const refused = (limit: UploadLimit, message: string) => invalidInput({ [limit.field]: message }, message);

/** What a multipart failure means to the person uploading. */
function uploadFailure(limit: UploadLimit, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return uploadTooLarge(limit);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return refused(limit, '一次只能上传一个文件');
    default:
      // busboy's own: no boundary, cut off before the closing boundary, a malformed part header…
      return refused(limit, '上传的内容无法读取');
  }
}

/**
 * Streams the one file of a multipart request (field `limit.field`) into `consume` and reads
 * the rest of the body, so that a second file or a body cut off after the file is refused too.
 * Whatever `consume` throws as an ApiError reaches the caller as it is.
 */
export async function streamUpload<T>(
  request: FastifyRequest,
  limit: UploadLimit,
  consume: (file: Readable, filename: string) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw refused(limit, `请选择要上传的${limit.what}文件（multipart/form-data）`);
  let outcome: { value: T } | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: limit.maxBytes } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== limit.field) {
        part.file.resume();
        throw refused(limit, `文件须放在字段 ${limit.field} 中`);
      }
      // Over the limit the stream just ends early, marked truncated: never take it as the file
      // (nor trust what `consume` made of a file cut short, e.g. a broken gzip).
      const tooLarge = () => part.file.truncated;
      const value = await consume(part.file, part.filename).catch((error: unknown) => {
        throw tooLarge() ? uploadTooLarge(limit) : error;
      });
      if (tooLarge()) throw uploadTooLarge(limit);
      outcome = { value };
    }
  } catch (error) {
    throw uploadFailure(limit, error);
  }
  if (!outcome) throw refused(limit, `请选择要上传的${limit.what}文件`);
  return outcome.value;
}

/** The one file of a multipart request, whole: not empty, at most `limit.maxBytes`. */
export async function readUpload(request: FastifyRequest, limit: UploadLimit): Promise<Buffer> {
  const data = await streamUpload(request, limit, async (file) => {
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
  if (data.byteLength === 0) throw refused(limit, `${limit.what}文件是空的`);
  return data;
}
