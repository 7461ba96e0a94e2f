/**
 * One uploaded file from a multipart request, checked before it is stored: at most one file, at
 * most `maxBytes`, and its type read from its magic bytes (file-type) — never from the name or
 * the declared Content-Type. Stored in the content-addressed blob store under a name made of its
 * hash, so no client-given name or path ever reaches the disk.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { putBlob, type StoredBlob } from '../../files/blob-store.js';
import { ApiError, invalidInput } from '../../http/envelope.js';

export interface UploadRule {
  /** Form field name the file comes in. */
  field: string;
  /** Detected MIME type → stored extension. */
  types: Readonly<Record<string, string>>;
  maxBytes: number;
  /** For messages: 音频 / 图片. */
  what: string;
  /** For messages: MP3、WAV、OGG、M4A. */
  formats: string;
}

export const AUDIO_UPLOAD: UploadRule = {
  field: 'file',
  types: {
    'audio/mpeg': 'mp3',
    'audio/wav': 'wav',
    'audio/vnd.wave': 'wav',
    'audio/x-wav': 'wav',
    'audio/ogg': 'ogg',
    'audio/ogg; codecs=opus': 'ogg',
    'audio/x-m4a': 'm4a',
    'audio/mp4': 'm4a',
  },
  maxBytes: 30 * 1024 * 1024,
  what: '音频',
  formats: 'MP3、WAV、OGG、M4A',
};

export const IMAGE_UPLOAD: UploadRule = {
  field: 'file',
  types: { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' },
  maxBytes: 5 * 1024 * 1024,
  what: '图片',
  formats: 'JPG、PNG、WEBP',
};

/** Registers the multipart parser on `scope` with the largest limit of the rules it serves. */
export async function registerUploads(scope: FastifyInstance, rules: readonly UploadRule[]): Promise<void> {
  const fileSize = Math.max(...rules.map((r) => r.maxBytes));
  await scope.register(multipart, { limits: { files: 1, fileSize, fields: 5, parts: 6 } });
}

const sizeText = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Reads, checks and stores the one file of the request. */
export async function acceptUpload(
  request: FastifyRequest,
  dataDir: string,
  rule: UploadRule,
): Promise<StoredBlob & { type: string }> {
  if (!request.isMultipart())
    throw invalidInput({ [rule.field]: `请选择要上传的${rule.what}文件` }, '请用表单上传文件');
  const part = await request.file({ limits: { fileSize: rule.maxBytes } });
  if (!part || part.fieldname !== rule.field)
    throw invalidInput({ [rule.field]: `请选择要上传的${rule.what}文件` });
  const data = await part.toBuffer().catch((error: unknown) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError({
        status: 413,
        errorCode: 413,
        message: `${rule.what}文件不能超过 ${sizeText(rule.maxBytes)}`,
        data: { fields: { [rule.field]: `${rule.what}文件不能超过 ${sizeText(rule.maxBytes)}` } },
      });
    throw error;
  });
  if (data.byteLength === 0) throw invalidInput({ [rule.field]: `${rule.what}文件是空的` });
  const detected = await fileTypeFromBuffer(data);
  const ext = detected ? rule.types[detected.mime] : undefined;
  if (!detected || !ext)
    throw invalidInput({
      [rule.field]: `不支持的${rule.what}格式，请上传 ${rule.formats} 文件`,
    });
  const blob = await putBlob(dataDir, data, ext);
  return { ...blob, type: detected.mime };
}
