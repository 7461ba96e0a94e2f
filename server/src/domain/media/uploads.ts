/**
 * One uploaded file, checked before it is stored: read by files/uploads.ts (one file, at most
 * `maxBytes`, malformed bodies refused), its type read from its magic bytes (file-type) — never
 * from the name or the declared Content-Type — and an image held to files/image-rule.ts. Stored
 * in the content-addressed blob store under a name made of its hash, so no client-given name or
 * path ever reaches the disk.
 */

import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { BlobStore, StoredBlob } from '../../files/blob-store.js';
import { assertImageDecodes, checkedImage } from '../../files/image-rule.js';
import { readUpload, type UploadLimit } from '../../files/uploads.js';
import { invalidInput } from '../../http/envelope.js';

export interface UploadRule extends UploadLimit {
  /** Detected MIME type → stored extension. */
  types: Readonly<Record<string, string>>;
  /** For messages: MP3、WAV、OGG、M4A. */
  formats: string;
  /** Held to the image rule (dimensions bounded, pixels readable). */
  image?: boolean;
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
  image: true,
};

/** Reads, checks and stores the one file of the request. */
export async function acceptUpload(
  request: FastifyRequest,
  blobs: BlobStore,
  rule: UploadRule,
): Promise<StoredBlob & { type: string }> {
  const data = await readUpload(request, rule);
  const detected = await fileTypeFromBuffer(data);
  const ext = detected ? rule.types[detected.mime] : undefined;
  if (!detected || !ext)
    throw invalidInput({
      [rule.field]: `不支持的${rule.what}格式，请上传 ${rule.formats} 文件`,
    });
  if (rule.image) await assertImageDecodes((await checkedImage(data)).input);
  const blob = await blobs.put(data, ext);
  return { ...blob, type: detected.mime };
}
