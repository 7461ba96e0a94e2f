/**
 * `wanxiang keys create|list|revoke|rotate`: API-market keys from a terminal, through the admin
 * API (apiKeys; needs apiMarket:write to create, rotate, revoke).
 *
 * `create` and `rotate` print the key once — the server keeps only its hash — alone on stdout
 * (`wanxiang keys create … > key.txt` keeps just the key), the warning on stderr; `--json` prints
 * the whole answer with `key`.
 */
import { getResource, isApiKeyShaped, type Row } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { outputWidth } from '../io/terminal';
import { type RowFormat, renderList } from '../output/rows';
import { parseId } from '../registry/find';
import type { Runtime, Server } from '../runtime';
import { chosenFormat, clientOf, connect, formatOption, jsonOption, showRow } from './resource-context';

const apiKeys = getResource('apiKeys');
const users = getResource('users');
const marketApis = getResource('marketApis');

const usage = (message: string) => new CliError(message, { exitCode: ExitCode.usage });

/** `--user 12` or `--user alice` → the user's id (an exact username; 2 for none). */
async function userIdOf(server: Server, text: string): Promise<number> {
  if (/^\d+$/.test(text.trim())) return parseId(text);
  const found = await clientOf(server, users).list({ q: text.trim(), limit: 50 });
  if (!found.success) throw found.error;
  const user = found.list.find((u) => u.username === text.trim());
  if (!user) throw usage(`没有用户名为 ${text} 的用户`);
  return user.id;
}

/** `--scopes totp,palette` → the APIs' ids (each code must exist). */
async function scopeIdsOf(server: Server, text: string | undefined): Promise<number[]> {
  const codes = (text ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (codes.length === 0) return [];
  const found = await clientOf(server, marketApis).list({ limit: 500 });
  if (!found.success) throw found.error;
  const byCode = new Map(found.list.map((api) => [String(api.code), api.id]));
  const unknown = codes.filter((c) => !byCode.has(c));
  if (unknown.length > 0)
    throw usage(`没有这些 API：${unknown.join('、')}（编码见 wanxiang list marketApis）`);
  return codes.map((c) => byCode.get(c) as number);
}

/** The key once: alone on stdout (or in the JSON), the warning on stderr. */
function printKey(runtime: Runtime, row: Row, format: RowFormat, what: string): void {
  const { io } = runtime;
  const key = String(row.key ?? '');
  if (!isApiKeyShaped(key)) throw new CliError('服务端没有返回 Key');
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
    return;
  }
  io.stdout.write(`${key}\n`);
  io.stderr.write(
    `${what} API Key #${row.id}「${row.name}」（前缀 ${row.prefix}）。完整 Key 只显示这一次，请立即保存。\n`,
  );
}

export function registerKeys(program: Command, runtime: Runtime): void {
  const group = program
    .command('keys')
    .description('API 市场的 Key：创建、列表、吊销、轮换（完整 Key 只在创建、轮换时显示一次）')
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang keys create --user alice --name 生产环境 --scopes totp,palette\n  $ wanxiang keys list --user alice\n  $ wanxiang keys rotate 3 > key.txt\n  $ wanxiang keys revoke 3',
    );

  group
    .command('create')
    .description('为用户创建 Key：Key 单独输出到标准输出，只显示这一次')
    .requiredOption('--user <ID或用户名>', '所属用户')
    .requiredOption('--name <名称>', 'Key 的名称，便于区分用途')
    .option('--scopes <编码,编码>', '可调用的 API 编码，逗号分隔；不填则可调用全部')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .action(
      async (
        options: { user: string; name: string; scopes?: string; format: RowFormat; json?: boolean },
        cmd: Command,
      ) => {
        const server = connect(runtime, cmd);
        const userId = await userIdOf(server, options.user);
        const scopes = await scopeIdsOf(server, options.scopes);
        const row = await clientOf(server, apiKeys).create({ userId, name: options.name, scopes });
        printKey(runtime, row, chosenFormat(options), '已创建');
      },
    );

  group
    .command('list')
    .description('列出 Key（只有前缀，没有完整 Key），最新的在前')
    .option('--user <ID或用户名>', '只看这个用户的')
    .option('--status <状态>', '有效 active / 已吊销 revoked')
    .option('--limit <条数>', '条数，1-500（默认 50）', '50')
    .addOption(formatOption(['table', 'json', 'csv']))
    .addOption(jsonOption())
    .action(
      async (
        options: { user?: string; status?: string; limit: string; format: RowFormat; json?: boolean },
        cmd: Command,
      ) => {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw usage('--limit 须为 1 到 500 的整数');
        if (options.status && !['active', 'revoked'].includes(options.status))
          throw usage('--status 须为 active 或 revoked');
        const server = connect(runtime, cmd);
        const filters: Record<string, string> = {};
        if (options.user) filters.userId = String(await userIdOf(server, options.user));
        if (options.status) filters.status = options.status;
        const result = await clientOf(server, apiKeys).list({ filters, limit, sort: '-createdAt' });
        if (!result.success) throw result.error;
        const { io } = runtime;
        const rendered = renderList(apiKeys, chosenFormat(options), result, {
          withTotal: false,
          width: outputWidth(io.stdout, io.env),
        });
        io.stdout.write(rendered.stdout);
        for (const note of rendered.notes) io.stderr.write(`${note}\n`);
      },
    );

  group
    .command('revoke')
    .description('吊销一个 Key：使用它的调用立即失败，不能恢复')
    .argument('<id>', 'Key 的 ID（`wanxiang keys list` 查看）')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .action(async (idText: string, options: { format: RowFormat; json?: boolean }, cmd: Command) => {
      const client = clientOf(connect(runtime, cmd), apiKeys);
      await showRow(
        runtime,
        client,
        await client.action(parseId(idText), 'revoke', {}),
        chosenFormat(options),
      );
    });

  group
    .command('rotate')
    .description('轮换一个 Key：旧 Key 立即失效，新 Key 单独输出到标准输出，只显示这一次')
    .argument('<id>', 'Key 的 ID')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .action(async (idText: string, options: { format: RowFormat; json?: boolean }, cmd: Command) => {
      const client = clientOf(connect(runtime, cmd), apiKeys);
      const row = await client.action(parseId(idText), 'rotate', {});
      printKey(runtime, row, chosenFormat(options), '已轮换');
    });
}
