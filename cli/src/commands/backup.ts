/**
 * `wanxiang backup [-o file]` and `wanxiang restore <file> [--yes]`: the server makes the online
 * copy (POST /api/admin/backup answers a .tar.gz of the database and the uploads) and restores
 * one (POST /api/admin/restore). Both stream with the platform's fetch — the HTTP client's 10 s
 * timeout is for small answers, not for gigabytes — and never hold the archive in memory.
 *
 * The download is written to `<file>.part` and checked (gunzipped to its end: a cut-off answer
 * fails there) before it is renamed, so a failed backup never leaves a file that looks whole; it
 * is on disk before it is reported saved (synced before the rename, its folder after — as
 * `pg_dump` syncs its output unless told not to), so a power cut cannot take a backup said saved.
 * Exit 0 on success, 1 when the server refused or failed, 2 for a file that cannot be read or
 * written (or a restore not confirmed outside a terminal), 4 when not signed in.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { formatBytes } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode, LOGIN_HINT } from '../errors';
import { confirmOrRefuse } from '../io/confirm';
import { syncFolder } from '../io/folder-sync';
import { fileUploadRequest, uploadFileSize } from '../io/local-file';
import type { Runtime } from '../runtime';
import { connect } from './resource-context';

/** `wanxiang-backup-20250301-083000.tar.gz`, in local time (the operator's clock). */
function defaultFileName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `wanxiang-backup-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}.tar.gz`;
}

async function failureOf(res: Response, what: string): Promise<CliError> {
  let message = `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) message = body.message;
  } catch {
    // not JSON
  }
  if (res.status === 401)
    return new CliError('登录已失效', { exitCode: ExitCode.authRequired, hint: LOGIN_HINT });
  if (res.status === 403) return new CliError(`${what}失败：没有权限（需要平台设置的写权限）`);
  return new CliError(`${what}失败：${message}`);
}

async function send(url: URL, init: RequestInit, apiUrl: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new CliError(`无法连接 ${apiUrl}：${error instanceof Error ? error.message : String(error)}`);
  }
}

export function registerBackup(program: Command, runtime: Runtime): void {
  program
    .command('backup')
    .description('备份：下载数据库与上传文件的在线副本（服务端复制，写入不停）')
    .option('-o, --output <文件>', '保存到的文件（默认 wanxiang-backup-年月日-时分秒.tar.gz）')
    .addHelpText(
      'after',
      [
        '',
        '示例：',
        '  $ wanxiang backup',
        '  $ wanxiang backup -o /backups/wanxiang-$(date +%F).tar.gz',
        '',
        '需要平台设置的写权限。退出码：0 已保存；1 服务器拒绝或备份失败；2 文件无法写入；4 需要登录',
      ].join('\n'),
    )
    .action(async (options: { output?: string }, cmd: Command) => {
      const file = resolve(options.output ?? defaultFileName());
      const part = `${file}.part`;
      const server = connect(runtime, cmd);
      const res = await send(
        new URL('/api/admin/backup', server.apiUrl),
        { method: 'POST', headers: { authorization: `Bearer ${server.tokenStore.get() ?? ''}` } },
        server.apiUrl,
      );
      if (!res.ok || !res.body) throw await failureOf(res, '备份');
      let out: Writable;
      try {
        // `flush`: the file is synced before it closes.
        out = createWriteStream(part, { flags: 'wx', flush: true });
        await new Promise<void>((ok, fail) => out.once('open', () => ok()).once('error', fail));
      } catch (error) {
        await res.body.cancel().catch(() => undefined);
        throw new CliError(`无法写入 ${part}：${error instanceof Error ? error.message : String(error)}`, {
          exitCode: ExitCode.usage,
        });
      }
      // The same bytes to the file and through gunzip, which fails on a cut-off or damaged answer.
      const check = new PassThrough();
      const checked = pipeline(
        check,
        createGunzip(),
        new Writable({
          write: (_chunk, _encoding, done) => done(),
        }),
      );
      let bytes = 0;
      try {
        await Promise.all([
          pipeline(
            Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
            new Transform({
              transform(chunk: Buffer, _encoding, done) {
                bytes += chunk.length;
                check.write(chunk);
                done(null, chunk);
              },
            }).on('finish', () => check.end()),
            out,
          ),
          checked,
        ]);
      } catch (error) {
        await rm(part, { force: true });
        throw new CliError(
          `备份失败：下载中断或内容不完整（${error instanceof Error ? error.message : String(error)}），未保存`,
        );
      }
      await rename(part, file);
      await syncFolder(dirname(file));
      runtime.io.stdout.write(`✓ 已保存备份 ${file}（${formatBytes(bytes)}）\n`);
    });

  program
    .command('restore')
    .description('恢复：用备份文件替换服务器上的全部数据（不可撤销）')
    .argument('<file>', '`wanxiang backup` 保存的 .tar.gz 文件')
    .option('-y, --yes', '不再询问（不在终端里运行时必须给出）')
    .addHelpText(
      'after',
      [
        '',
        '示例：',
        '  $ wanxiang restore wanxiang-backup-20250301-083000.tar.gz',
        '  $ wanxiang restore /backups/wanxiang-2025-03-01.tar.gz --yes',
        '',
        '服务器先完整校验备份（损坏、数据库类型不符或版本比服务新时拒绝，不作任何修改），恢复期间其他写操作答“维护中”。',
        '恢复后的登录以备份中的为准，可能需要重新登录。',
        '需要平台设置的写权限。退出码：0 已恢复；1 服务器拒绝或恢复失败；2 文件无法读取或未确认；4 需要登录',
      ].join('\n'),
    )
    .action(async (file: string, options: { yes?: boolean }, cmd: Command) => {
      const size = uploadFileSize(file, '备份文件');
      const server = connect(runtime, cmd);
      await confirmOrRefuse(
        runtime.io,
        {
          what: `用 ${file} 恢复 ${server.apiUrl} 的全部数据`,
          question: `用 ${file}（${formatBytes(size)}）替换 ${server.apiUrl} 上的全部数据？此操作不可撤销`,
        },
        options.yes,
      );
      const res = await send(
        new URL('/api/admin/restore', server.apiUrl),
        fileUploadRequest({ file, size, contentType: 'application/gzip', token: server.tokenStore.get() }),
        server.apiUrl,
      );
      if (!res.ok) throw await failureOf(res, '恢复');
      const body = (await res.json()) as { message?: string; data?: { migrationsApplied?: string[] } };
      runtime.io.stdout.write(`✓ ${body.message ?? '已恢复'}\n`);
      const applied = body.data?.migrationsApplied ?? [];
      if (applied.length > 0) runtime.io.stdout.write(`  已升级数据库：${applied.join('、')}\n`);
    });
}
