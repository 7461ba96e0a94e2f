/**
 * The backup archive (README.md): a gzip'd tar of the database copy, the uploads and, last,
 * `manifest.json` — last because it holds the SHA-256 of every member, learnt while each is
 * streamed out (the archive is written once, never held whole). Reading checks everything before
 * the caller changes anything: only known member names, each member's size and SHA-256 against
 * the manifest, nothing missing and nothing extra.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { blobPath, uploadsDir } from '../../files/blob-store.js';

export const ARCHIVE_FORMAT = 'wanxiang-backup';
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
export const SQLITE_MEMBER = 'database.sqlite';
export const POSTGRES_MEMBER = 'database.pgdump';

export interface MemberSum {
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  appVersion: string;
  dialect: 'sqlite' | 'postgres';
  /** The newest migration applied in the copy (`0020_sensitive_words`). */
  migration: string | null;
  /** PostgreSQL: the schema the tables were dumped from. */
  schema?: string;
  createdAt: string;
  /** Rows per table in the copy, as counted inside the same snapshot. */
  tables: Record<string, number>;
  /** Every other member of the archive with its size and SHA-256. */
  files: Record<string, MemberSum>;
}

/** A problem with the archive itself: the route answers 422 and changes nothing. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

const UPLOAD_MEMBER = /^uploads\/([0-9a-f]{2})\/([0-9a-f]{32}\.[a-z0-9]{2,5})$/;

/** The uploads' files as archive members (`uploads/3f/3f9a….jpg`), sorted. */
export async function listUploads(dataDir: string): Promise<{ member: string; file: string }[]> {
  const root = uploadsDir(dataDir);
  const out: { member: string; file: string }[] = [];
  let shards: string[];
  try {
    shards = await readdir(root);
  } catch {
    return out;
  }
  for (const shard of shards.sort()) {
    let names: string[];
    try {
      names = await readdir(path.join(root, shard));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const member = `uploads/${shard}/${name}`;
      // Half-written temporaries (`….tmp`) and anything else are not blobs.
      if (UPLOAD_MEMBER.test(member) && blobPath(dataDir, name) === path.join(root, shard, name))
        out.push({ member, file: path.join(root, shard, name) });
    }
  }
  return out;
}

/** Counts bytes and hashes what passes through. */
function summing(): { transform: Transform; sum: () => MemberSum } {
  const hash = createHash('sha256');
  let bytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { transform, sum: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/**
 * The archive as a stream: `members` in order (each file's size read when its turn comes, so a
 * file must not change once listed — the database copy is a file of its own and blobs are never
 * rewritten), then the manifest with their sums.
 */
export function writeArchive(
  members: readonly { member: string; file: string }[],
  manifest: Omit<Manifest, 'files'>,
): Readable {
  const pack = tar.pack();
  const gzip = createGzip({ level: 6 });
  const out = new PassThrough();
  pipeline(pack, gzip, out).catch((error) => out.destroy(error));
  (async () => {
    const files: Record<string, MemberSum> = {};
    for (const { member, file } of members) {
      const size = (await stat(file)).size;
      const { transform, sum } = summing();
      const entry = pack.entry({ name: member, size, mode: 0o644, mtime: new Date(0) });
      await pipeline(createReadStream(file), transform, entry);
      files[member] = sum();
    }
    const text = Buffer.from(JSON.stringify({ ...manifest, files } satisfies Manifest, null, 2));
    pack.entry({ name: MANIFEST, size: text.length, mode: 0o644, mtime: new Date(0) }, text);
    pack.finalize();
  })().catch((error) => pack.destroy(error));
  return out;
}

export interface ExtractedArchive {
  manifest: Manifest;
  /** The database copy's file (database.sqlite or database.pgdump); null when missing. */
  database: string | null;
  /** Blob id → its extracted file. */
  uploads: Map<string, string>;
}

function isManifest(value: unknown): value is Manifest {
  const m = value as Manifest;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.format === ARCHIVE_FORMAT &&
    typeof m.formatVersion === 'number' &&
    (m.dialect === 'sqlite' || m.dialect === 'postgres') &&
    (m.migration === null || typeof m.migration === 'string') &&
    typeof m.files === 'object' &&
    m.files !== null &&
    typeof m.tables === 'object' &&
    m.tables !== null
  );
}

/**
 * Unpacks `archive` (a .tar.gz file) into `dir` and checks it against its manifest. Throws
 * ArchiveError for anything that is not a complete, unaltered archive of this format.
 */
export async function extractArchive(
  archive: string,
  dir: string,
  /** The most bytes unpacked in all (a small gzip may unpack to far more than the disk holds). */
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<ExtractedArchive> {
  let unpacked = 0;
  const sums = new Map<string, MemberSum>();
  const files = new Map<string, string>();
  let manifestText: string | null = null;
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const name = header.name;
    const fail = (why: string) => {
      stream.resume();
      extract.destroy(new ArchiveError(why));
    };
    if (header.type !== 'file') return fail(`备份文件中有不认识的条目：${name}`);
    if (sums.has(name) || (name === MANIFEST && manifestText !== null))
      return fail(`备份文件中的条目重复：${name}`);
    if (name === MANIFEST) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (data: unknown) => {
        const chunk = data as Buffer;
        size += chunk.length;
        if (size > 16 * 2 ** 20) return fail('备份清单过大');
        chunks.push(chunk);
      });
      stream.on('end', () => {
        manifestText = Buffer.concat(chunks).toString('utf8');
        next();
      });
      return;
    }
    let target: string;
    if (name === SQLITE_MEMBER || name === POSTGRES_MEMBER) target = path.join(dir, name);
    else if (UPLOAD_MEMBER.test(name)) target = path.join(dir, ...name.split('/'));
    else return fail(`备份文件中有不认识的条目：${name}`);
    const { transform, sum } = summing();
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        unpacked += chunk.length;
        if (unpacked > maxBytes)
          return done(new ArchiveError('备份文件解压后超过上限（BACKUP_RESTORE_MAX_MB 的 16 倍）'));
        done(null, chunk);
      },
    });
    mkdir(path.dirname(target), { recursive: true })
      .then(() => pipeline(stream, bounded, transform, createWriteStream(target)))
      .then(() => {
        sums.set(name, sum());
        files.set(name, target);
        next();
      })
      .catch((error) => extract.destroy(error));
  });
  try {
    await pipeline(createReadStream(archive), createGunzip(), extract);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError('备份文件已损坏或不完整（无法解压）');
  }
  if (manifestText === null) throw new ArchiveError('备份文件缺少清单 manifest.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch {
    throw new ArchiveError('备份清单 manifest.json 无法读取');
  }
  if (!isManifest(manifest)) throw new ArchiveError('不是万象的备份文件（清单格式不符）');
  if (manifest.formatVersion > ARCHIVE_FORMAT_VERSION)
    throw new ArchiveError(`备份格式版本 ${manifest.formatVersion} 比本服务支持的更新，请先升级服务`);
  for (const [name, expected] of Object.entries(manifest.files)) {
    const got = sums.get(name);
    if (!got) throw new ArchiveError(`备份文件不完整：缺少 ${name}`);
    if (got.bytes !== expected.bytes || got.sha256 !== expected.sha256)
      throw new ArchiveError(`备份文件已损坏：${name} 的校验和不符`);
  }
  for (const name of sums.keys())
    if (!(name in manifest.files)) throw new ArchiveError(`备份文件中有清单未列出的条目：${name}`);
  const databaseMember = manifest.dialect === 'sqlite' ? SQLITE_MEMBER : POSTGRES_MEMBER;
  // Checked by the caller after the dialect, which names the better reason to refuse.
  const database = files.get(databaseMember) ?? null;
  const uploads = new Map<string, string>();
  for (const [name, file] of files) {
    const m = UPLOAD_MEMBER.exec(name);
    if (m) uploads.set(m[2] as string, file);
  }
  return { manifest, database, uploads };
}

/** The SHA-256 of a file's bytes (an upload's id is the first 32 hex digits of it). */
export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}
