/** `wanxiang export <resource>`: every matching row, streamed from the server to a file or stdout. */
import { type Command, Option } from 'commander';
import { type ExportOptions, runExport } from '../export/run-export';
import { addFlags, filterFlags } from '../registry/field-flags';
import { resolveResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import { listRequest } from '../registry/list-request';
import type { Runtime } from '../runtime';
import {
  explainFieldFlags,
  namedResource,
  notAFilter,
  RESOURCE_ARGUMENT,
  tolerateUnknownResource,
} from './resource-context';

export const exportOptions = (command: Command): Command =>
  command
    .addOption(
      new Option(
        '--format <格式>',
        '导出格式：csv（带 BOM，Excel 可直接打开）或 ndjson（每行一个 JSON）；默认按 --output 的扩展名，否则 csv',
      ).choices(['csv', 'ndjson']),
    )
    .option(
      '-o, --output <文件>',
      '写入文件（先写临时文件，完成后改名；失败不留半个文件）；不给或 - 则写到标准输出',
    )
    .option('--progress', '在标准错误上显示进度（终端里默认显示）')
    .option('--no-progress', '不显示进度');

export function registerExport(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'export');
  const def = named?.def;
  const flags = def ? filterFlags(def) : [];
  const command = exportOptions(
    program
      .command('export')
      .description(
        def
          ? `导出全部符合条件的${def.title}（${def.name}），流式写出，内存占用恒定`
          : '导出某个资源全部符合条件的记录（CSV 或 NDJSON），流式写出，内存占用恒定',
      )
      .argument('<resource>', RESOURCE_ARGUMENT)
      .option('--q <关键字>', '关键字搜索')
      .option('--sort <字段>', '排序：字段名，前加 - 为倒序'),
  );
  addFlags(command, flags);
  if (def) explainFieldFlags(command, def, notAFilter);
  tolerateUnknownResource(command, named);
  const name = def?.name ?? 'orders';
  command
    .addHelpText(
      'after',
      `
筛选条件与 \`wanxiang list ${def ? def.name : '<资源>'}\` 相同${def ? '' : '（运行 `wanxiang export <资源> --help` 查看）'}。

示例：
  $ wanxiang export ${name} --output ${name}.csv
  $ wanxiang export ${name} --created-at-gte 2024-05-01 --format ndjson | jq -c .
  $ wanxiang export ${name} --format ndjson --output ${name}.ndjson --progress`,
    )
    .action(async (token: string, options: ExportOptions & Record<string, unknown>, cmd: Command) => {
      const resource = resolveResource(token);
      const { filters, q, sort } = listRequest(resource, flags, options);
      await runExport(
        runtime,
        cmd,
        resource,
        { filters, ...(q ? { q } : {}), ...(sort ? { sort } : {}) },
        options,
      );
    });
}
