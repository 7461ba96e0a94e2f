/**
 * `wanxiang create` and `wanxiang update`: a body from the resource's field flags and/or
 * `--data`, checked by core's validation before it is sent.
 */
import { canCreate, canUpdate, isApiError, type ResourceDef } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import type { RowFormat } from '../output/rows';
import { addFlags, bodyFlags, type FieldFlag } from '../registry/field-flags';
import { parseId, resolveResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import { type BodyOptions, resourceBody, serverRejection } from '../registry/request-body';
import type { Runtime } from '../runtime';
import {
  chosenFormat,
  clientOf,
  connect,
  explainFieldFlags,
  formatOption,
  jsonOption,
  namedResource,
  notWritable,
  RESOURCE_ARGUMENT,
  showRow,
  tolerateUnknownResource,
} from './resource-context';

interface WriteOptions extends BodyOptions {
  format: RowFormat;
  json?: boolean;
  ifMatch?: string;
}

const DATA_OPTION = '整个内容：JSON 文本，@文件 读取文件，@- 读标准输入；与字段选项同时给出时以字段选项为准';

export function registerCreate(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'create');
  const def = named?.def;
  const flags = def && canCreate(def) ? bodyFlags(def, 'create') : [];
  const command = program
    .command('create')
    .description(
      def ? `新建一条${def.title}（${def.name}）` : '新建一条记录：字段用选项给出，或用 --data 给出整个 JSON',
    )
    .argument('<resource>', RESOURCE_ARGUMENT)
    .option('--data <JSON|@文件>', DATA_OPTION)
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption());
  addFlags(command, flags);
  if (def) explainFieldFlags(command, def, (field) => notWritable(field, 'create'));
  // "cannot be created" is the error that matters, whatever flags were given.
  if (def && !canCreate(def)) command.allowUnknownOption().allowExcessArguments();
  tolerateUnknownResource(command, named);
  command
    .addHelpText('after', writeHelp('create', def, flags))
    .action(async (token: string, options: WriteOptions, cmd: Command) => {
      const resource = resolveResource(token);
      if (!canCreate(resource)) throw cannot(resource, '新建');
      const body = await resourceBody(resource, 'create', flags, options, runtime.io.stdin);
      const client = clientOf(connect(runtime, cmd), resource);
      const row = await client.create(body).catch((error: unknown) => {
        throw serverRejection(error, resource, flags);
      });
      await showRow(runtime, client, row, chosenFormat(options));
    });
}

export function registerUpdate(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'update');
  const def = named?.def;
  const flags = def && canUpdate(def) ? bodyFlags(def, 'update') : [];
  const command = program
    .command('update')
    .description(def ? `修改一条${def.title}（${def.name}）：只改给出的字段` : '修改一条记录：只改给出的字段')
    .argument('<resource>', RESOURCE_ARGUMENT)
    .argument('<id>', '记录 ID')
    .option('--data <JSON|@文件>', DATA_OPTION)
    .option('--if-match <updatedAt>', '只在记录的 updatedAt 仍是这个值时修改（防止覆盖别人的修改）')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption());
  addFlags(command, flags);
  if (def) explainFieldFlags(command, def, (field) => notWritable(field, 'update'));
  if (def && !canUpdate(def)) command.allowUnknownOption().allowExcessArguments();
  tolerateUnknownResource(command, named);
  command
    .addHelpText('after', writeHelp('update', def, flags))
    .action(async (token: string, idText: string, options: WriteOptions, cmd: Command) => {
      const resource = resolveResource(token);
      const id = parseId(idText);
      if (!canUpdate(resource)) throw cannot(resource, '修改');
      const body = await resourceBody(resource, 'update', flags, options, runtime.io.stdin);
      const client = clientOf(connect(runtime, cmd), resource);
      const row = await client.update(id, body, options.ifMatch).catch((error: unknown) => {
        if (isApiError(error) && error.status === 409) {
          throw new CliError(`${error.message}（${error.errorCode}）`, {
            hint: `用 \`wanxiang get ${resource.name} ${id}\` 查看最新内容和 updatedAt，确认后再修改`,
          });
        }
        throw serverRejection(error, resource, flags);
      });
      await showRow(runtime, client, row, chosenFormat(options));
    });
}

function cannot(def: ResourceDef, verb: string): CliError {
  const why = def.readOnly ? '只读，由系统写入' : '由业务流程产生';
  return new CliError(`${def.title}（${def.name}）不能通过命令${verb}：${why}`, {
    exitCode: ExitCode.usage,
    ...(def.actions?.length ? { hint: `可用的操作：\`wanxiang action ${def.name} <id> <操作>\`` } : {}),
  });
}

function writeHelp(
  mode: 'create' | 'update',
  def: ResourceDef | undefined,
  flags: readonly FieldFlag[],
): string {
  const name = def?.name ?? (mode === 'create' ? 'stores' : 'memberLevels');
  const lines = [''];
  if (!def) {
    lines.push(
      `字段选项由资源的定义生成：运行 \`wanxiang ${mode} <资源> --help\` 查看；`,
      '金额以分为单位，时间按北京时间，列表用逗号分隔。提交前按与服务端相同的规则检查。',
      '',
    );
  }
  lines.push('示例：');
  const example = flags
    .filter((f) => mode === 'update' || f.def.required)
    .slice(0, 3)
    .map((f) => `${f.option.long} ${exampleValue(f)}`)
    .join(' ');
  if (mode === 'create') {
    lines.push(
      `  $ wanxiang create ${name} ${example || '--name 朝阳门店 --phone 010-88886666 --address "朝阳门外大街 1 号"'}`,
    );
    lines.push(`  $ wanxiang create ${name} --data @${name}.json --json | jq .id`);
  } else {
    lines.push(
      `  $ wanxiang update ${name} 12 ${example.split(' ').slice(0, 2).join(' ') || '--name 黄金会员'}`,
    );
    lines.push(`  $ wanxiang update ${name} 12 --data @changes.json --if-match 2024-05-01T08:00:00.000Z`);
    lines.push('  （给字段空值即清空它，如 --data \'{"remark": ""}\'；必填字段不能清空）');
  }
  return lines.join('\n');
}

function exampleValue(flag: FieldFlag): string {
  const { def } = flag;
  switch (def.type) {
    case 'enum':
    case 'enumList':
      return def.options[0]?.value ?? '值';
    case 'integer':
    case 'number':
      return String(def.min ?? 1);
    case 'money':
      return '1990';
    case 'relation':
      return '1';
    case 'boolean':
      return 'true';
    case 'datetime':
      return '2024-05-01';
    case 'date':
      return '2024-05-01';
    case 'password':
      return '"$NEW_PASSWORD"';
    case 'string':
      if (def.format === 'url') return 'https://example.com';
      return def.format === 'phone'
        ? '13800138000'
        : def.format === 'email'
          ? 'ops@example.com'
          : `${def.label.replace(/\s/g, '')}示例`;
    default:
      return '值';
  }
}
