/**
 * BLOB_STORE=database: uploads' bytes in the `blobs` table, so every server process on one
 * database reads every upload (a file uploaded through one process behind a load balancer is
 * served by any other). Content-addressed like the folder store: the id is the bytes' hash, an
 * insert of bytes already stored does nothing.
 *
 * Each process keeps a copy of what it wrote or served in its own `${dataDir}/uploads/` — the
 * folder store's layout — and serves from there. An id names its bytes for ever, so a copy is
 * never stale and needs no invalidation; `GET /api/files/:id` streams it with Range and caching
 * headers exactly as the folder store does. The copies are a cache: deleting them loses nothing.
 *
 * Reading the folder first also keeps an install that switched from BLOB_STORE=folder whole:
 * its old files are still served, and `importFolder()` (run once at start) copies the ones the
 * table lacks into it, so the other processes serve them too. With the database store the bytes
 * travel in the database's dump; the folder need not be backed up.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  type BlobStore,
  blobIdFor,
  blobPath,
  FILES_URL_PREFIX,
  FolderBlobStore,
  type StoredBlob,
  uploadsDir,
} from './blob-store.js';

/** Ids asked about in one statement while importing a folder. */
const IMPORT_BATCH = 200;

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

export class DatabaseBlobStore implements BlobStore {
  readonly kind = 'database';
  private readonly local: FolderBlobStore;

  constructor(
    private readonly db: Kysely<Database>,
    dataDir: string,
    private readonly now: () => number,
  ) {
    this.local = new FolderBlobStore(dataDir);
  }

  async put(data: Uint8Array, ext: string): Promise<StoredBlob> {
    const id = blobIdFor(data, ext);
    if (!blobPath(this.local.dataDir, id)) throw new Error(`bad blob extension ${ext}`);
    await this.insert(id, asBuffer(data));
    // This process's copy, so serving what it just stored reads no database.
    await this.local.put(data, ext);
    return { id, url: FILES_URL_PREFIX + id, bytes: data.byteLength };
  }

  async read(id: string): Promise<Buffer | null> {
    const file = await this.localFile(id);
    return file ? readFile(file).catch(() => null) : null;
  }

  async exists(id: string): Promise<boolean> {
    if (!blobPath(this.local.dataDir, id)) return false;
    if (await this.local.exists(id)) return true;
    const row = await this.db.selectFrom('blobs').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async localFile(id: string): Promise<string | null> {
    if (!blobPath(this.local.dataDir, id)) return null;
    const kept = await this.local.localFile(id);
    if (kept) return kept;
    const row = await this.db.selectFrom('blobs').select('bytes').where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const ext = id.slice(id.lastIndexOf('.') + 1);
    const copy = await this.local.put(row.bytes, ext);
    // The bytes hash to their id unless the row was altered by hand: then it is not this blob.
    return copy.id === id ? this.local.localFile(id) : null;
  }

  /**
   * Copies the folder's files the table lacks into it (an install switching from the folder
   * store). Returns how many were copied. Safe to run by several processes at once.
   */
  async importFolder(): Promise<number> {
    const root = uploadsDir(this.local.dataDir);
    const ids: string[] = [];
    for (const shard of await readdir(root).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await readdir(path.join(root, shard)).catch(() => [] as string[])) {
        if (blobPath(this.local.dataDir, name)) ids.push(name);
      }
    }
    let copied = 0;
    for (let i = 0; i < ids.length; i += IMPORT_BATCH) {
      const batch = ids.slice(i, i + IMPORT_BATCH);
      const stored = new Set(
        (await this.db.selectFrom('blobs').select('id').where('id', 'in', batch).execute()).map((r) => r.id),
      );
      for (const id of batch) {
        if (stored.has(id)) continue;
        const file = blobPath(this.local.dataDir, id) as string;
        const data = await readFile(file).catch(() => null);
        // Only files whose bytes are their id: a half-written or renamed file is left alone.
        if (!data || blobIdFor(data, id.slice(id.lastIndexOf('.') + 1)) !== id) continue;
        await this.insert(id, data);
        copied++;
      }
    }
    return copied;
  }

  private async insert(id: string, bytes: Buffer): Promise<void> {
    await this.db
      .insertInto('blobs')
      .values({ id, size: bytes.byteLength, created_at: this.now(), bytes })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}
