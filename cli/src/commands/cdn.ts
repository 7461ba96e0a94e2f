/**
 * `wanxiang cdn import <access.log[.gz]> --domain <domain>`: streams an nginx access log (plain or
 * gzip: the server tells them apart by their first bytes) to POST /api/admin/cdnDomains/{id}/import
 * and prints what the import counted. The file is sent as it is read — never held whole in
 * memory — with the platform's fetch (the HTTP client's 10 s timeout is for small answers, not
 * for a gigabyte upload). Exit 0 when imported or already imported (nothing counted twice), 1
 * when the server refused or failed, 2 for a file that cannot be read.
 */
import { basename } from 'node:path';
import { chinaHourLabel, createResourceClient, formatBytes, getResource } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { fileUploadRequest, uploadFileSize } from '../io/local-file';
import type { Runtime } from '../runtime';
import { chosenFormat, connect, formatOption, jsonOption } from './resource-context';

interface ImportAnswer {
  success: boolean;
  message?: string;
  data?: {
    alreadyImported: boolean;
    import: {
      lines: number;
      malformed: number;
      hours: number;
      requests: number;
      bytes: number;
      hasCache: boolean;
      firstHour: string | null;
      lastHour: string | null;
      at: string;
      samples: { line: number; reason: string; text: string }[];
    };
  };
}

function renderImport(answer: Required<ImportAnswer>['data'], message: string): string {
  const i = answer.import;
  const out = [answer.alreadyImported ? `! ${message}` : `✓ ${message}`];
  out.push(
    `行数：${i.lines}    格式错误：${i.malformed}    小时数：${i.hours}`,
    `请求数：${i.requests}    流量：${formatBytes(i.bytes)}（${i.bytes} 字节）    命中率：${i.hasCache ? '已计算' : '日志无缓存状态字段，未知'}`,
  );
  if (i.firstHour && i.lastHour)
    out.push(`时段：${chinaHourLabel(Date.parse(i.firstHour))} — ${chinaHourLabel(Date.parse(i.lastHour))}`);
  if (i.samples.length > 0) {
    out.push('', `格式错误的行（前 ${i.samples.length} 条）：`);
    for (const s of i.samples) out.push(`  第 ${s.line} 行 ${s.reason}：${s.text}`);
  }
  return `${out.join('\n')}\n`;
}

export function registerCdn(program: Command, runtime: Runtime): void {
  const group = program.command('cdn').description('CDN：导入访问日志');
  group
    .command('import')
    .description(
      '导入 nginx combined 格式的访问日志（可为 .gz），按小时汇总到该域名的用量；同一文件不重复计数',
    )
    .argument('<file>', '日志文件，如 access.log 或 access.log.gz')
    .requiredOption('--domain <域名>', '加速域名（日志本身不带域名），如 img.example.com')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        '示例：',
        '  $ wanxiang cdn import /var/log/nginx/access.log.1 --domain img.example.com',
        '  $ wanxiang cdn import access.log.2.gz --domain img.example.com --json',
        '',
        '退出码：0 已导入（或该文件已导入过，未重复计数）；1 服务器拒绝或导入失败；2 文件无法读取',
      ].join('\n'),
    )
    .action(
      async (
        file: string,
        options: { domain: string; format: 'table' | 'json'; json?: boolean },
        cmd: Command,
      ) => {
        const size = uploadFileSize(file, '日志文件');
        const server = connect(runtime, cmd);
        const wanted = options.domain.trim().toLowerCase();
        const list = await createResourceClient(server.http, getResource('cdnDomains')).list({
          q: wanted,
          limit: 50,
        });
        const domain = list.success
          ? list.list.find((r) => String(r.domain).toLowerCase() === wanted)
          : undefined;
        if (!domain)
          throw new CliError(`没有这个 CDN 域名：${options.domain}`, {
            hint: '先在后台 云 CDN → CDN 域名 添加它',
          });

        const url = new URL(`/api/admin/cdnDomains/${domain.id}/import`, server.apiUrl);
        url.searchParams.set('fileName', basename(file));
        let res: Response;
        try {
          res = await fetch(
            url,
            fileUploadRequest({
              file,
              size,
              contentType: 'application/octet-stream',
              token: server.tokenStore.get(),
            }),
          );
        } catch (error) {
          throw new CliError(
            `无法连接 ${server.apiUrl}：${error instanceof Error ? error.message : String(error)}`,
          );
        }
        let answer: ImportAnswer;
        try {
          answer = (await res.json()) as ImportAnswer;
        } catch {
          throw new CliError(`导入失败：服务器答复 HTTP ${res.status}`);
        }
        if (res.status === 401)
          throw new CliError('登录已失效，请重新登录', { exitCode: ExitCode.authRequired });
        if (!res.ok || !answer.success || !answer.data)
          throw new CliError(`导入失败：${answer.message ?? `HTTP ${res.status}`}`);
        if (chosenFormat(options) === 'json')
          runtime.io.stdout.write(`${JSON.stringify(answer.data, null, 2)}\n`);
        else runtime.io.stdout.write(renderImport(answer.data, answer.message ?? ''));
      },
    );
}
