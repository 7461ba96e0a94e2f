/**
 * The content-addressed file store (uploaded and demo images, audio, posters, screenshots). A
 * file's id is the first 32 hex digits of its SHA-256 plus its extension (`3f9a…c1.jpg`); image
 * and file fields hold `/api/files/{id}`. Writing the same bytes twice is a no-op, so re-running a
 * seeder never duplicates files.
 *
 * Callers use a `BlobStore` (`app.blobs`), chosen by BLOB_STORE:
 * - `folder` (the default, the embedded deployment): files under `${dataDir}/uploads/`, kept as
 *   `uploads/3f/3f9a…c1.jpg` — this module's FolderBlobStore;
 * - `database`: the bytes in the `blobs` table, so every server process on one database reads
 *   every upload (./database-blobs.ts).
 *
 * `./routes.ts` serves them at `GET /api/files/:id`.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from './durable.js';

export const FILES_URL_PREFIX = '/api/files/';

const ID = /^([0-9a-f]{2})[0-9a-f]{30}\.([a-z0-9]{2,5})$/;

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
};

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** The file of a blob id, or null when the id is not one this store makes (no path tricks). */
export function blobPath(dataDir: string, id: string): string | null {
  const m = ID.exec(id);
  if (!m) return null;
  return path.join(uploadsDir(dataDir), m[1] as string, id);
}

export function contentTypeOf(id: string): string {
  return CONTENT_TYPES[id.slice(id.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** The blob id in a `/api/files/{id}` URL, or null. */
export function blobIdOf(url: string | null | undefined): string | null {
  if (!url?.startsWith(FILES_URL_PREFIX)) return null;
  const id = url.slice(FILES_URL_PREFIX.length);
  return ID.test(id) ? id : null;
}

export interface StoredBlob {
  id: string;
  url: string;
  bytes: number;
}

export type BlobStoreKind = 'folder' | 'database';

/** Where uploads go and come from; one per app (`app.blobs`). */
export interface BlobStore {
  readonly kind: BlobStoreKind;
  /** Stores `data` (once: the same bytes give the same id); `ext` names its type (`jpg`). */
  put(data: Uint8Array, ext: string): Promise<StoredBlob>;
  /** The bytes of a blob, or null when the id is not one of this store's or nothing is stored. */
  read(id: string): Promise<Buffer | null>;
  exists(id: string): Promise<boolean>;
  /**
   * A file on this machine holding the blob's bytes (what `GET /api/files/:id` streams, with
   * Range and caching headers), or null when nothing is stored under the id.
   */
  localFile(id: string): Promise<string | null>;
}

/** The id the store gives `data`. */
export function blobIdFor(data: Uint8Array, ext: string): string {
  return `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${ext}`;
}

/** The folder store: `${dataDir}/uploads/`. */
export class FolderBlobStore implements BlobStore {
  readonly kind = 'folder';
  constructor(readonly dataDir: string) {}

  put(data: Uint8Array, ext: string): Promise<StoredBlob> {
    return putBlob(this.dataDir, data, ext);
  }

  async read(id: string): Promise<Buffer | null> {
    const file = await this.localFile(id);
    return file ? readFile(file).catch(() => null) : null;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.localFile(id)) !== null;
  }

  async localFile(id: string): Promise<string | null> {
    const file = blobPath(this.dataDir, id);
    return file && existsSync(file) ? file : null;
  }
}

/** Writes `data` into the folder store of `dataDir` (FolderBlobStore.put; tests and tools). */
export async function putBlob(dataDir: string, data: Uint8Array, ext: string): Promise<StoredBlob> {
  const id = blobIdFor(data, ext);
  const file = blobPath(dataDir, id);
  if (!file) throw new Error(`bad blob extension ${ext}`);
  // On disk before the caller commits the row that names it (durable.ts).
  if (!existsSync(file)) await writeFileDurably(file, data);
  return { id, url: FILES_URL_PREFIX + id, bytes: data.byteLength };
}
