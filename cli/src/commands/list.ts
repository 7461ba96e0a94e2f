/** `wanxiang list <resource>`: one page of rows, filtered by the resource's own fields. */
import { isSortable, type ResourceDef, SYSTEM_FIELD_DEFS, searchableFields } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { outputWidth } from '../io/terminal';
import { type RowFormat, renderList } from '../output/rows';
import { addFlags, type FieldFlag, filterFlags } from '../registry/field-flags';
import { resolveResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import { listRequest } from '../registry/list-request';
import type { Runtime } from '../runtime';
import {
  chosenFormat,
  clientOf,
  connect,
  explainFieldFlags,
  formatOption,
  jsonOption,
  namedResource,
  notAFilter,
  RESOURCE_ARGUMENT,
  tolerateUnknownResource,
} from './resource-context';

interface ListCommandOptions extends Record<string, unknown> {
  q?: string;
  sort?: string;
  page?: string;
  limit?: string;
  format: RowFormat;
  json?: boolean;
  withTotal?: boolean;
}

export function registerList(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'list');
  const def = named?.def;
  const flags = def ? filterFlags(def) : [];

  const command = program
    .command('list')
    .description(
      def
        ? `列出${def.title}（${def.name}）：按字段筛选、关键字搜索、排序、分页`
        : '列出某个资源的一页记录：按字段筛选、关键字搜索、排序、分页',
    )
    .argument('<resource>', RESOURCE_ARGUMENT)
    .option('--q <关键字>', '关键字搜索（在可搜索的字段里找）')
    .option('--sort <字段>', '排序：字段名，前加 - 为倒序，多个用逗号分隔，如 -createdAt')
    .option('--page <页码>', '页码，从 1 开始（默认 1）')
    .option('--limit <条数>', '每页条数，1-500（默认 20）')
    .addOption(formatOption(['table', 'json', 'csv', 'ndjson']))
    .addOption(jsonOption())
    .option('--with-total', '输出 JSON {total, rows}：符合条件的总条数和本页记录');
  addFlags(command, flags);
  if (def) explainFieldFlags(command, def, notAFilter);
  tolerateUnknownResource(command, named);
  command
    .addHelpText('after', def ? resourceHelp(def, flags) : GENERIC_HELP)
    .action(async (token: string, options: ListCommandOptions, cmd: Command) => {
      const resource = resolveResource(token);
      let format = chosenFormat(options);
      if (options.withTotal) {
        if (cmd.getOptionValueSource('format') === 'cli' && format !== 'json') {
          throw new CliError('--with-total 只用于 JSON 输出', { exitCode: ExitCode.usage });
        }
        format = 'json';
      }
      const params = listRequest(resource, flags, options);
      const server = connect(runtime, cmd);
      const result = await clientOf(server, resource).list(params);
      if (!result.success) throw result.error;

      const { io } = runtime;
      const rendered = renderList(resource, format, result, {
        withTotal: options.withTotal ?? false,
        width: outputWidth(io.stdout, io.env),
      });
      io.stdout.write(rendered.stdout);
      for (const note of rendered.notes) io.stderr.write(`${note}\n`);
    });
}

const GENERIC_HELP = `
每个资源的筛选选项由它的字段生成：运行 \`wanxiang list <资源> --help\` 查看，
或 \`wanxiang resources <资源>\` 查看字段、类型和可选值。

示例：
  $ wanxiang list stores
  $ wanxiang list orders --status paid --sort -createdAt --limit 50
  $ wanxiang list orders --status-in paid,accepted --format json | jq '.[].orderNo'
  $ wanxiang list orders --created-at-gte 2024-05-01 --with-total | jq .total`;

function resourceHelp(def: ResourceDef, flags: readonly FieldFlag[]): string {
  const sortable = [...Object.keys(SYSTEM_FIELD_DEFS), ...Object.keys(def.fields)].filter((name) =>
    isSortable(def, name),
  );
  const searchable = searchableFields(def).map((name) => def.fields[name]?.label ?? name);
  const lines = [
    '',
    `可排序：${sortable.join('、')}（前加 - 为倒序；默认 ${def.defaultSort ?? '-createdAt'}）`,
    `关键字搜索（--q）：${searchable.length > 0 ? searchable.join('、') : '不支持'}`,
    `字段、类型和可选值：wanxiang resources ${def.name}`,
    '',
    '示例：',
    `  $ wanxiang list ${def.name}`,
  ];
  const enumFlags = flags.filter((f) => f.op === 'eq' && f.def.type === 'enum');
  const enumFlag = enumFlags.find((f) => f.field === 'status') ?? enumFlags[0];
  if (enumFlag && enumFlag.def.type === 'enum') {
    const values = enumFlag.def.options.slice(0, 2).map((o) => o.value);
    lines.push(
      `  $ wanxiang list ${def.name} ${enumFlag.option.long} ${values[0]} --sort -createdAt --limit 50`,
    );
    const inFlag = flags.find((f) => f.field === enumFlag.field && f.op === 'in');
    if (inFlag && values.length > 1)
      lines.push(`  $ wanxiang list ${def.name} ${inFlag.option.long} ${values.join(',')} --format json`);
  }
  const since = flags.find((f) => f.field === 'createdAt' && f.op === 'gte');
  if (since)
    lines.push(
      `  $ wanxiang list ${def.name} ${since.option.long} 2024-05-01 --format csv > ${def.name}.csv`,
    );
  lines.push(`  $ wanxiang list ${def.name} --with-total | jq .total`);
  return lines.join('\n');
}
