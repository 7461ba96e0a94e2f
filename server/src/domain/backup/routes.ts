/**
 * Backup and restore (README.md):
 *
 *   POST /api/admin/backup    system:write   answers the archive (.tar.gz), streamed
 *   POST /api/admin/restore   system:write   the archive as the raw body; replaces the data
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '@wanxiang/core';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { bumpDataEpoch } from '../../db/data-epoch.js';
import { MIGRATIONS, migrateToLatest } from '../../db/migrate.js';
import { blobPath } from '../../files/blob-store.js';
import { ApiError, invalidInput, ok } from '../../http/envelope.js';
import {
  authFailureResponses,
  bearerSecurity,
  failureEnvelopeSchema,
  successEnvelopeSchema,
} from '../../http/schemas.js';
import { writeAudit } from '../../resources/audit.js';
import type { AnyDb } from '../../resources/extensions.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ArchiveError,
  type ExtractedArchive,
  extractArchive,
  listUploads,
  type Manifest,
  POSTGRES_MEMBER,
  SQLITE_MEMBER,
  sha256Of,
  writeArchive,
} from './archive.js';
import { checkDump, dumpPostgres, restorePostgres } from './pg-copy.js';
import { copySqlite, inspectSqlite, restoreSqlite } from './sqlite-copy.js';

/** Raw bodies taken as a stream (never buffered by Fastify). */
const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];
export const DEFAULT_RESTORE_MAX_BYTES = 10 * 1024 * 2 ** 20;
/** Working folders older than this are left over from a process that died (removed at start). */
const STALE_WORK_MS = 86_400_000;
/** How long a restore waits for the writes already running to answer. */
const DRAIN_MS = 60_000;

const LATEST_MIGRATION = Object.keys(MIGRATIONS).sort().at(-1) ?? null;

const DIALECT_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** `wanxiang-backup-20250301-083000.tar.gz` (UTC). */
export function backupFileName(at: number): string {
  const iso = new Date(at).toISOString();
  return `wanxiang-backup-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}.tar.gz`;
}

/** Published when restored data is live (and again once migrated): caches keyed by the epoch. */
const RESTORED_TOPIC = 'system:restored';

const unprocessable = (message: string) =>
  new ApiError({ status: 422, errorCode: ErrorCode.invalidInput, message: `${message}：未作任何修改` });

const manifestSchema = {
  type: 'object',
  properties: {
    format: { type: 'string' },
    formatVersion: { type: 'integer' },
    appVersion: { type: 'string' },
    dialect: { type: 'string', enum: ['sqlite', 'postgres'] },
    migration: { type: ['string', 'null'], description: '备份中最新的数据库迁移' },
    createdAt: { type: 'string', format: 'date-time' },
    tables: { type: 'object', additionalProperties: { type: 'integer' }, description: '各表行数' },
  },
} as const;

export const backupRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  const admin = app.requirePermission('system', 'write');
  const maxBytes = app.config.backup?.restoreMaxBytes ?? DEFAULT_RESTORE_MAX_BYTES;
  const { dataDir } = app.config;

  // This plugin's scope only: the archive reaches the handler as the request stream.
  app.addContentTypeParser(ARCHIVE_TYPES, (_request, payload, done) => done(null, payload));

  const workBase = path.join(dataDir, 'backup-work');

  // Every process on the database drops its caches when a restore commits, not only the one that
  // ran it: the signal goes through the hub, which on PostgreSQL reaches the other processes
  // (ws/pg-fanout.ts). No socket may subscribe to it (no prefix allows `system:`).
  app.hub.subscribe(RESTORED_TOPIC, () => bumpDataEpoch());

  /** A working folder beside the data (same disk as the database; never in the uploads). */
  async function workDir(): Promise<string> {
    await mkdir(workBase, { recursive: true });
    return mkdtemp(path.join(workBase, 'run-'));
  }

  // What a process killed during a backup or restore left behind. Only folders a day old: another
  // process on the same data folder may be using a newer one.
  try {
    for (const name of await readdir(workBase)) {
      const folder = path.join(workBase, name);
      if (Date.now() - (await stat(folder)).mtimeMs > STALE_WORK_MS)
        await rm(folder, { recursive: true, force: true });
    }
  } catch {
    // no folder yet
  }

  app.post(
    '/api/admin/backup',
    {
      preHandler: admin,
      schema: {
        tags: ['system'],
        summary: '备份：下载数据库与上传文件的在线副本（.tar.gz）',
        description:
          '服务端在线复制，写入照常进行：SQLite 用其备份 API 一次复制成一致的快照；PostgreSQL 在一个导出的快照内运行 ' +
          '`pg_dump --format=custom`（需服务器上有不旧于数据库服务的 pg_dump，否则答 503）。' +
          '归档依次含数据库副本、`uploads/` 下的上传文件和 `manifest.json`（格式版本、应用版本、数据库类型、' +
          '最新迁移、创建时间、各表行数、每个成员的 SHA-256）。需要平台设置的写权限；记入审计日志。',
        security: bearerSecurity,
        response: {
          200: { description: '备份归档（application/gzip）', type: 'string', format: 'binary' },
          ...authFailureResponses,
          503: { description: '正在恢复，或找不到合适版本的 pg_dump', ...failureEnvelopeSchema },
        },
      },
    },
    async (request, reply) => {
      if (app.maintenance.active)
        throw new ApiError({ status: 503, errorCode: 503, message: '维护中：正在恢复备份，请稍后再备份' });
      const at = app.config.now();
      const dir = await workDir();
      const cleanup = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
      try {
        const database = app.config.database;
        let member: string;
        let facts: { migration: string | null; tables: Record<string, number>; schema?: string };
        if (database.dialect === 'sqlite') {
          member = SQLITE_MEMBER;
          await copySqlite(database.file, path.join(dir, member));
          facts = inspectSqlite(path.join(dir, member));
        } else {
          member = POSTGRES_MEMBER;
          facts = await dumpPostgres(database.url, path.join(dir, member));
        }
        // Listed after the copy: every upload a copied row names was written before its row.
        const uploads = await listUploads(dataDir);
        const manifest: Omit<Manifest, 'files'> = {
          format: ARCHIVE_FORMAT,
          formatVersion: ARCHIVE_FORMAT_VERSION,
          appVersion: app.config.version,
          dialect: database.dialect,
          migration: facts.migration,
          ...(facts.schema ? { schema: facts.schema } : {}),
          createdAt: new Date(at).toISOString(),
          tables: facts.tables,
        };
        await writeAudit(app.db as unknown as AnyDb, {
          userId: request.user?.id ?? null,
          action: 'system.backup',
          resource: 'system',
          recordId: null,
          before: null,
          after: { migration: facts.migration, rows: sum(facts.tables), uploads: uploads.length },
          ip: request.ip,
          now: at,
        });
        const archive = writeArchive([{ member, file: path.join(dir, member) }, ...uploads], manifest);
        archive.once('close', cleanup);
        archive.once('error', (error) => request.log.error({ err: error }, 'backup archive failed'));
        return reply
          .type('application/gzip')
          .header('content-disposition', `attachment; filename="${backupFileName(at)}"`)
          .header('cache-control', 'no-store')
          .send(archive);
      } catch (error) {
        await cleanup();
        throw error;
      }
    },
  );

  /** The body saved to `file`, refused past `maxBytes` (413). */
  async function saveBody(body: unknown, file: string): Promise<number> {
    if (!body || typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function')
      throw invalidInput({ file: '请求体须为备份文件（application/gzip）' }, '请求体须为备份文件');
    let bytes = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > maxBytes)
          return done(
            new ApiError({
              status: 413,
              errorCode: ErrorCode.payloadTooLarge,
              message: `备份文件超过上限 ${Math.round(maxBytes / 2 ** 20)} MB（BACKUP_RESTORE_MAX_MB）`,
            }),
          );
        done(null, chunk);
      },
    });
    try {
      await pipeline(body as AsyncIterable<Buffer>, limit, createWriteStream(file));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw unprocessable('备份文件上传中断');
    }
    if (bytes === 0) throw unprocessable('备份文件是空的');
    return bytes;
  }

  /** Everything that can be checked before the data is touched; throws the 422. */
  async function validate(extracted: ExtractedArchive): Promise<string> {
    const m = extracted.manifest;
    const dialect = app.config.database.dialect;
    if (m.dialect !== dialect)
      throw unprocessable(
        `备份来自 ${DIALECT_NAMES[m.dialect]}，本服务使用 ${DIALECT_NAMES[dialect]}，不能直接恢复`,
      );
    if (m.migration === null || !(m.migration in MIGRATIONS))
      throw unprocessable(
        m.migration !== null && LATEST_MIGRATION !== null && m.migration > LATEST_MIGRATION
          ? `备份的数据库版本（迁移 ${m.migration}）比本服务（${LATEST_MIGRATION}）新，请先升级服务`
          : `备份的数据库版本（迁移 ${m.migration ?? '无'}）不是本服务认识的版本`,
      );
    const database = extracted.database;
    if (database === null) throw unprocessable('备份文件不完整：缺少数据库副本');
    if (dialect === 'sqlite') {
      try {
        const facts = inspectSqlite(database);
        if (facts.migration !== m.migration) throw new Error('migration differs from the manifest');
      } catch {
        throw unprocessable('备份中的数据库副本无法读取或已损坏');
      }
    } else {
      try {
        await checkDump(database);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw unprocessable('备份中的数据库副本无法读取或已损坏');
      }
    }
    for (const [id, file] of extracted.uploads)
      if (!(await sha256Of(file)).startsWith(id.slice(0, 32)) || blobPath(dataDir, id) === null)
        throw unprocessable(`备份中的上传文件 ${id} 与其内容不符`);
    return database;
  }

  /** Uploads the store does not hold yet; a file already there has the same bytes (content-addressed). */
  async function addUploads(uploads: ReadonlyMap<string, string>): Promise<number> {
    let added = 0;
    for (const [id, file] of uploads) {
      const target = blobPath(dataDir, id);
      if (!target || existsSync(target)) continue;
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await copyFile(file, tmp);
      await rename(tmp, target);
      added++;
    }
    return added;
  }

  app.post(
    '/api/admin/restore',
    {
      preHandler: admin,
      schema: {
        tags: ['system'],
        summary: '恢复：用备份归档替换全部数据',
        description:
          '请求体为 `POST /api/admin/backup` 下载的归档本身（`application/gzip`），流式接收，大小上限 ' +
          '`BACKUP_RESTORE_MAX_MB`。先完整校验（清单、每个成员的 SHA-256、数据库类型一致、备份的迁移不新于本服务），' +
          '不合格答 422 且不作任何修改；然后替换数据（SQLite 经备份 API 写入在用的数据库，PostgreSQL 在一个事务内重建 schema），' +
          '运行迁移（旧备份升到当前版本），补上备份中的上传文件。恢复期间其他写请求答 503 维护中，读照常。' +
          '恢复后登录会话以备份中的为准。',
        security: bearerSecurity,
        consumes: ARCHIVE_TYPES,
        response: {
          200: successEnvelopeSchema({
            type: 'object',
            properties: {
              backup: manifestSchema,
              migrationsApplied: { type: 'array', items: { type: 'string' } },
              uploadsAdded: { type: 'integer' },
            },
          }),
          ...authFailureResponses,
          413: { description: '归档过大', ...failureEnvelopeSchema },
          422: {
            description: '归档损坏、数据库类型不符或版本比服务新：未作任何修改',
            ...failureEnvelopeSchema,
          },
          503: { description: '已有恢复在进行，或缺少 pg_restore/psql', ...failureEnvelopeSchema },
        },
      },
    },
    async (request) => {
      if (app.maintenance.active)
        throw new ApiError({ status: 503, errorCode: 503, message: '维护中：已有恢复在进行' });
      const dir = await workDir();
      try {
        const archive = path.join(dir, 'upload.tar.gz');
        await saveBody(request.body, archive);
        let extracted: ExtractedArchive;
        try {
          extracted = await extractArchive(archive, path.join(dir, 'extracted'), maxBytes * 16);
        } catch (error) {
          if (error instanceof ArchiveError) throw unprocessable(error.message);
          throw error;
        }
        await rm(archive, { force: true });
        const copy = await validate(extracted);

        const database = app.config.database;
        const manifest = extracted.manifest;
        let applied: string[];
        // First: a file the store lacks harms nothing if the restore then fails, and once the rows
        // that name them are live every upload is already there.
        const uploadsAdded = await addUploads(extracted.uploads);
        app.maintenance.begin('restore');
        try {
          await app.maintenance.drained(1, DRAIN_MS);
          try {
            if (database.dialect === 'sqlite') await restoreSqlite(copy, database.file);
            else
              await restorePostgres(database.url, copy, manifest.schema ?? 'public', {
                tocFile: path.join(dir, 'restore.toc'),
                scriptFile: path.join(dir, 'restore.sql'),
              });
          } catch (error) {
            if (error instanceof ApiError) throw error;
            request.log.error({ err: error }, 'restore failed');
            throw new ApiError({
              status: 500,
              errorCode: ErrorCode.serverError,
              message: '恢复失败，数据未作修改，详情见服务器日志',
            });
          }
          // From here the restored data is live: no cache may answer from before it.
          app.hub.publish(RESTORED_TOPIC, { phase: 'data' });
          applied = await migrateToLatest(app.db, app.dbDialect);
          await app.dbLearnColumns();
          app.hub.publish(RESTORED_TOPIC, { phase: 'migrated' });
        } finally {
          app.maintenance.end();
        }
        // Into the restored data, so the entry survives the restore it records.
        await writeAudit(app.db as unknown as AnyDb, {
          userId: request.user?.id ?? null,
          action: 'system.restore',
          resource: 'system',
          recordId: null,
          before: null,
          after: {
            backupCreatedAt: manifest.createdAt,
            migration: manifest.migration,
            migrationsApplied: applied,
          },
          ip: request.ip,
          now: app.config.now(),
        }).catch((error) => request.log.warn({ err: error }, 'restore audit entry not written'));
        request.log.warn(
          { backup: manifest.createdAt, migrations: applied },
          'database restored from a backup',
        );
        const { files: _files, ...backup } = manifest;
        return ok(
          { backup, migrationsApplied: applied, uploadsAdded },
          `已恢复到 ${manifest.createdAt} 的备份（${sum(manifest.tables)} 行，${extracted.uploads.size} 个上传文件）`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  );
};

function sum(tables: Record<string, number>): number {
  return Object.values(tables).reduce((a, b) => a + b, 0);
}
