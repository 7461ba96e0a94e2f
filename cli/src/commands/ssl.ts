/**
 * `wanxiang ssl check <host[:port]>` and `wanxiang ssl jobs`: certificate checks for cron.
 *
 * The server does the handshake (POST /api/me/ssl/check): one owner of the check, the same
 * verdicts and Chinese reasons as /ssl, and the same outbound policy. The exit code is the
 * verdict's (core's `verdictExitCode`): 0 ok, 1 expiring, 2 anything else — an expired,
 * untrusted or mismatched certificate, an unreachable host, and a check that could not be asked
 * at all (refused, bad input), so a script never mistakes a failure for "expiring".
 */
import { readFileSync } from 'node:fs';
import {
  type CertificateCheckResult,
  formatDate,
  formatDateTime,
  getResource,
  type Row,
  STARTTLS_PROTOCOLS,
  VERDICT_LABEL,
  verdictExitCode,
} from '@wanxiang/core';
import { type Command, Option } from 'commander';
import { CliError, ExitCode } from '../errors';
import { outputWidth } from '../io/terminal';
import { renderTable } from '../output/table';
import type { Runtime } from '../runtime';
import { chosenFormat, clientOf, connect, formatOption, jsonOption } from './resource-context';

/** `host`, `host:port`; the port 1–65535. */
export function parseTarget(text: string): { host: string; port?: number } {
  const match = /^([^:\s]+)(?::(\d{1,5}))?$/.exec(text.trim());
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || (port !== undefined && (port < 1 || port > 65_535))) {
    throw new CliError(`无法识别的主机：${text}`, {
      exitCode: ExitCode.usage,
      hint: '写成 主机 或 主机:端口，如 www.example.com 或 mail.example.com:587',
    });
  }
  return { host: (match[1] as string).toLowerCase(), port };
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`无法读取根证书文件：${file}`, { exitCode: ExitCode.usage });
  }
}

/** Anything that kept the check from being made is exit 2 as well (not 1: that means expiring). */
function asCheckFailure(error: unknown): never {
  if (error instanceof CliError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  throw new CliError(`检测失败：${message}`, { exitCode: 2 });
}

const MARK = { 0: '✓', 1: '!', 2: '✗' } as const;

export function renderCheck(result: CertificateCheckResult, width: number): string {
  const out: string[] = [];
  out.push(`${MARK[verdictExitCode(result.verdict)]} ${VERDICT_LABEL[result.verdict]}：${result.reason}`);
  const days = result.daysLeft === null ? '-' : `${result.daysLeft} 天`;
  out.push(
    `主机：${result.host}:${result.port}    剩余：${days}    检测时间：${formatDateTime(result.checkedAt)}`,
  );
  if (result.chain.length === 0) return `${out.join('\n')}\n`;
  out.push('', '证书链：');
  const table = renderTable(
    [
      { header: '#', align: 'right', shrink: false },
      { header: '使用者' },
      { header: '颁发者' },
      { header: '生效', shrink: false },
      { header: '到期', shrink: false },
      { header: '密钥', shrink: false },
    ],
    result.chain.map((c, i) => [
      String(i),
      c.subject,
      c.selfSigned ? `${c.issuer}（自签名）` : c.issuer,
      formatDate(c.notBefore),
      formatDate(c.notAfter),
      c.keyType ? `${c.keyType}${c.keySize ? ` ${c.keySize}` : ''}` : '-',
    ]),
    width,
    { cellMax: 60 },
  );
  out.push(table.text.trimEnd());
  const leaf = result.chain[0];
  if (leaf) {
    out.push('', `域名（SAN）：${leaf.sans.join(', ') || '-'}`, `SHA-256：${leaf.fingerprint256}`);
  }
  return `${out.join('\n')}\n`;
}

interface CheckOptions {
  starttls?: string;
  servername?: string;
  ca?: string;
  format: 'table' | 'json';
  json?: boolean;
}

interface JobsOptions {
  status?: string;
  format: 'table' | 'json';
  json?: boolean;
}

const JOB_STATUSES = ['pending', 'ok', 'expiring', 'expired', 'error'] as const;
const STATUS_LABEL: Record<string, string> = {
  pending: '待检测',
  ok: '正常',
  expiring: '即将到期',
  expired: '已过期',
  error: '检测失败',
};

/** The worst status listed, as an exit code: 2 expired or failing, 1 expiring, else 0. */
export function jobsExitCode(rows: readonly Row[]): 0 | 1 | 2 {
  if (rows.some((r) => r.status === 'expired' || r.status === 'error')) return 2;
  return rows.some((r) => r.status === 'expiring') ? 1 : 0;
}

export function registerSsl(program: Command, runtime: Runtime): void {
  const group = program
    .command('ssl')
    .description('证书检测（供 cron 使用：退出码 0 正常，1 即将到期，2 过期、无效或无法连接）')
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang ssl check www.example.com\n  $ wanxiang ssl jobs --status expiring',
    );

  group
    .command('check')
    .description('检测一个主机的证书（由服务器发起真实 TLS 握手），显示结论和证书链')
    .argument('<host[:port]>', '主机和端口，默认 443；STARTTLS 时默认该协议的端口（25/143/110）')
    .addOption(
      new Option('--starttls <协议>', '先明文连接再升级 TLS：smtp、imap、pop3').choices(STARTTLS_PROTOCOLS),
    )
    .option('--servername <域名>', 'SNI 及校验用的域名（按 IP 检测时填写证书上的域名）')
    .option('--ca <文件>', '额外信任的根证书（PEM 文件），与系统根证书一同信任，用于内部 CA 签发的证书')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        '示例：',
        '  $ wanxiang ssl check www.example.com',
        '  $ wanxiang ssl check mail.example.com:587 --starttls smtp',
        '  $ wanxiang ssl check 10.0.0.5:8443 --servername intranet.example.com --ca 内部根证书.pem',
        '  $ wanxiang ssl check shop.example.com --json | jq .daysLeft',
        '',
        '退出码：',
        '  0 证书正常；1 即将到期（剩余天数 ≤ 21）；2 已过期、不受信任、域名不匹配、无法连接或检测失败',
      ].join('\n'),
    )
    .action(async (target: string, options: CheckOptions, cmd: Command) => {
      const { host, port } = parseTarget(target);
      const ca = options.ca === undefined ? undefined : readCa(options.ca);
      const server = connect(runtime, cmd);
      const answer = await server.http
        .request<{ data: CertificateCheckResult }>('/api/me/ssl/check', {
          method: 'POST',
          // The verdict is the output: no "操作成功" notice on stderr.
          kind: 'silent',
          body: {
            host,
            ...(port === undefined ? {} : { port }),
            ...(options.starttls ? { starttls: options.starttls } : {}),
            ...(options.servername ? { servername: options.servername } : {}),
            ...(ca === undefined ? {} : { ca }),
          },
        })
        .catch(asCheckFailure);
      const result = answer.data;
      if (chosenFormat(options) === 'json') runtime.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else runtime.io.stdout.write(renderCheck(result, outputWidth(runtime.io.stdout, runtime.io.env)));
      const code = verdictExitCode(result.verdict);
      // Already printed: only the exit code is left to say.
      if (code !== 0) throw new CliError(result.reason, { exitCode: code, reported: true });
    });

  group
    .command('jobs')
    .description('列出证书监控任务（需要监控查看权限）；退出码按所列任务中最差的状态')
    .addOption(new Option('--status <状态>', '只列出此状态').choices(JOB_STATUSES))
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        '示例：',
        '  $ wanxiang ssl jobs',
        '  $ wanxiang ssl jobs --status expiring',
        '  $ wanxiang ssl jobs --json | jq ".[] | {host, daysLeft}"',
        '',
        '退出码：0 全部正常或待检测；1 有即将到期的；2 有已过期或检测失败的',
      ].join('\n'),
    )
    .action(async (options: JobsOptions, cmd: Command) => {
      const server = connect(runtime, cmd);
      const client = clientOf(server, getResource('sslJobs'));
      const rows: Row[] = [];
      try {
        for await (const row of client.iterate({
          filters: options.status ? { status: options.status } : {},
          sort: 'notAfter',
          limit: 500,
        })) {
          rows.push(row);
        }
      } catch (error) {
        asCheckFailure(error);
      }
      if (chosenFormat(options) === 'json') {
        runtime.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else if (rows.length === 0) {
        runtime.io.stderr.write(
          options.status ? `没有${STATUS_LABEL[options.status]}的证书任务\n` : '还没有证书任务\n',
        );
      } else {
        const table = renderTable(
          [
            { header: 'ID', align: 'right', shrink: false },
            { header: '主机' },
            { header: '状态', shrink: false },
            { header: '剩余天数', align: 'right', shrink: false },
            { header: '到期时间', shrink: false },
            { header: '最近检测', shrink: false },
            { header: '说明' },
          ],
          rows.map((r) => [
            String(r.id),
            Number(r.port) === 443 ? String(r.host) : `${r.host}:${r.port}`,
            STATUS_LABEL[String(r.status)] ?? String(r.status),
            r.daysLeft === null || r.daysLeft === undefined ? '-' : String(r.daysLeft),
            formatDateTime(r.notAfter as string | null),
            formatDateTime(r.lastCheckAt as string | null),
            String(r.lastError ?? ''),
          ]),
          outputWidth(runtime.io.stdout, runtime.io.env),
        );
        runtime.io.stdout.write(table.text);
      }
      const code = jobsExitCode(rows);
      if (code !== 0) throw new CliError('', { exitCode: code, reported: true });
    });
}
