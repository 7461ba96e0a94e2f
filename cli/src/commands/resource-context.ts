/**
 * What the resource commands share: which resource the command line names (so its flags can be
 * added before parsing), the signed-in server, and the output format options.
 */
import {
  createResourceClient,
  type FieldDef,
  type Relations,
  type ResourceClient,
  type ResourceDef,
  type Row,
} from '@wanxiang/core';
import { type Command, Option } from 'commander';
import { savedLogin } from '../config/credentials';
import { notSignedIn } from '../errors';
import { renderRecord } from '../output/record';
import type { RowFormat } from '../output/rows';
import { kebabCase } from '../registry/field-flags';
import { lookupResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import type { Runtime, Server } from '../runtime';

export interface Named {
  /** As typed. */
  token: string;
  /** undefined when no resource has that name: the command then reports it. */
  def: ResourceDef | undefined;
}

/** The resource named by this run when it runs `command`; null when another command runs. */
export function namedResource(invocation: Invocation, command: string): Named | null {
  if (invocation.command !== command) return null;
  const token = invocation.operands[0];
  return token === undefined ? null : { token, def: lookupResource(token) };
}

/**
 * A command whose resource is unknown still parses, whatever flags follow: its action then says
 * "未知资源 …" with a suggestion, which is the error that matters.
 */
export function tolerateUnknownResource(command: Command, named: Named | null): void {
  if (named && !named.def) command.allowUnknownOption().allowExcessArguments();
}

/** The server of this command with its saved login; exit 4 without one, as whoami does. */
export function connect(runtime: Runtime, command: Command): Server {
  const server = runtime.server(command.optsWithGlobals().apiUrl);
  if (!savedLogin(runtime.credentials, server.apiUrl)) throw notSignedIn(server.apiUrl);
  return server;
}

export function clientOf(server: Server, def: ResourceDef): ResourceClient {
  return createResourceClient(server.http, def);
}

export function formatOption(choices: readonly RowFormat[]): Option {
  const notes: Record<RowFormat, string> = {
    table: 'table（表格，给人看）',
    json: 'json',
    csv: 'csv',
    ndjson: 'ndjson（每行一个 JSON）',
  };
  return new Option('--format <格式>', `输出：${choices.map((c) => notes[c]).join('、')}`)
    .choices(choices)
    .default('table');
}

export const jsonOption = () => new Option('--json', '同 --format json（供脚本解析）');

/** `--json` is short for `--format json` and wins over any --format. */
export function chosenFormat(options: { format: RowFormat; json?: boolean }): RowFormat {
  return options.json ? 'json' : options.format;
}

/** Where the resource argument is explained the same way in every command. */
export const RESOURCE_ARGUMENT = '资源名，如 orders、stores（`wanxiang resources` 列出全部）';

/**
 * One row on stdout: JSON as the API returned it, or the labelled view for people with related
 * rows by name. Names come from the list answer's `relations` (the only answer that carries
 * them), asked for this one row; without them a related row shows as `#id`.
 */
export async function showRow(
  runtime: Runtime,
  client: ResourceClient,
  row: Row,
  format: RowFormat,
): Promise<void> {
  if (format === 'json') {
    runtime.io.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
    return;
  }
  const hasRelations = Object.values(client.def.fields).some(
    (f) => (f.type === 'relation' || f.type === 'relationList') && !f.writeOnly,
  );
  let relations: Relations = {};
  if (hasRelations) {
    const named = await client.list({ filters: { id: row.id }, limit: 1 });
    if (named.success) relations = named.relations;
  }
  runtime.io.stdout.write(renderRecord(client.def, row, relations));
}

/**
 * An unknown flag that names a real field of the resource gets the reason it is not a flag here
 * (a field that cannot filter, a read-only field) instead of only "unknown option"; every usage
 * error of the command points at its own help, which lists the resource's flags.
 */
export function explainFieldFlags(
  command: Command,
  def: ResourceDef,
  why: (field: FieldDef, name: string) => string | null,
): void {
  command.showHelpAfterError(
    `  运行 \`wanxiang ${command.name()} ${def.name} --help\` 查看${def.title}可用的选项`,
  );
  const target = command as unknown as { unknownOption(flag: string): void };
  const original = target.unknownOption.bind(command);
  target.unknownOption = (flag: string) => {
    const spelled = flag.replace(/^--/, '').replace(/=.*$/, '');
    for (const [name, field] of Object.entries(def.fields)) {
      const kebab = kebabCase(name);
      if (spelled !== kebab && !spelled.startsWith(`${kebab}-`)) continue;
      const reason = why(field, name);
      if (reason) command.error(`error: ${def.title}的「${field.label}」（${name}）${reason}`);
    }
    original(flag);
  };
}

export function notAFilter(field: FieldDef): string | null {
  if (field.writeOnly) return '只写，不能用于筛选';
  return field.filterable ? null : '不能用于筛选（`wanxiang resources` 列出可筛选的字段）';
}

export function notWritable(field: FieldDef, mode: 'create' | 'update'): string | null {
  if (field.readOnly) return '是只读字段，由系统或业务操作维护';
  if (mode === 'update' && field.createOnly) return '只能在新建时设置';
  return null;
}
