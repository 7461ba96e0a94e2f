/**
 * `wanxiang orders export`: the operator's shorthand for exporting orders — by status, store and
 * a date range — over the same export as `wanxiang export orders`.
 */
import { type FieldDef, getResource, SYSTEM_FIELD_DEFS } from '@wanxiang/core';
import { type Command, Option } from 'commander';
import { CliError, ExitCode } from '../errors';
import { type ExportOptions, runExport } from '../export/run-export';
import type { FieldFlag } from '../registry/field-flags';
import { valueHint } from '../registry/field-flags';
import { listRequest } from '../registry/list-request';
import type { Runtime } from '../runtime';
import { exportOptions } from './export';
import { registerOrderTasks } from './order-tasks';
import { clientOf, connect } from './resource-context';

export function registerOrders(program: Command, runtime: Runtime): void {
  const orders = getResource('orders');
  const field = (name: string) => (SYSTEM_FIELD_DEFS[name] ?? orders.fields[name]) as FieldDef;
  // The shorthand's flags are filters like any other: core checks their values the same way.
  const flags: FieldFlag[] = [
    {
      option: new Option('--status <状态,…>', `订单状态，多个用逗号分隔（${valueHint(field('status'))}）`),
      field: 'status',
      def: field('status'),
      op: 'in',
      key: 'status_in',
    },
    {
      option: new Option('--store-id <ID,…>', '门店 ID，多个用逗号分隔'),
      field: 'storeId',
      def: field('storeId'),
      op: 'in',
      key: 'storeId_in',
    },
    {
      option: new Option('--since <日期>', '下单时间起（含），北京时间，如 2024-05-01 或 "2024-05-01 08:00"'),
      field: 'createdAt',
      def: field('createdAt'),
      op: 'gte',
      key: 'createdAt_gte',
    },
    {
      option: new Option('--until <日期>', '下单时间止（含；只写日期时含当天）'),
      field: 'createdAt',
      def: field('createdAt'),
      op: 'lte',
      key: 'createdAt_lte',
    },
    {
      option: new Option('--from <日期>', '同 --since').hideHelp(),
      field: 'createdAt',
      def: field('createdAt'),
      op: 'gte',
      key: 'createdAt_gte',
    },
    {
      option: new Option('--to <日期>', '同 --until').hideHelp(),
      field: 'createdAt',
      def: field('createdAt'),
      op: 'lte',
      key: 'createdAt_lte',
    },
  ];

  const group = program
    .command('orders')
    .description('订单的常用任务（运维快捷命令）')
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang orders export --store 朝阳门店 --status paid --since 2024-05-01 --until 2024-05-31 --output 五月已支付.csv',
    );
  const command = exportOptions(
    group
      .command('export')
      .description('导出订单：按状态、门店、下单日期筛选，流式写出（同 `wanxiang export orders`）')
      .option('--q <关键字>', '关键字搜索（订单号、收货地址）')
      .option('--store <门店>', '门店名称或 ID'),
  );
  for (const flag of flags) command.addOption(flag.option);
  command
    .addHelpText(
      'after',
      `
示例：
  $ wanxiang orders export --since 2024-05-01 --until 2024-05-31 --output orders-2024-05.csv
  $ wanxiang orders export --store 朝阳门店 --status completed,cancelled --format ndjson > orders.ndjson
  $ wanxiang orders export --status 已完成 --progress -o done.csv`,
    )
    .action(async (options: ExportOptions & Record<string, unknown>, cmd: Command) => {
      const { filters: given, q } = listRequest(orders, flags, options);
      const filters = { ...given };
      if (typeof options.store === 'string') filters.storeId = await storeIdOf(runtime, cmd, options.store);
      await runExport(runtime, cmd, orders, { filters, ...(q ? { q } : {}) }, options);
    });
  registerOrderTasks(group, runtime);
}

/** `--store 朝阳门店` or `--store 3`: the store's id, or a Chinese usage error naming the choices. */
async function storeIdOf(runtime: Runtime, cmd: Command, text: string): Promise<number> {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const stores = clientOf(connect(runtime, cmd), getResource('stores'));
  const found = await stores.list({ q: value, limit: 20 });
  if (!found.success) throw found.error;
  const exact = found.list.filter((s) => s.name === value);
  if (exact.length === 1) return (exact[0] as { id: number }).id;
  const names = found.list.map((s) => `${s.name}（${s.id}）`).join('、');
  throw new CliError(`没有名为「${value}」的门店`, {
    exitCode: ExitCode.usage,
    hint: names ? `相近的门店：${names}` : '用 `wanxiang list stores` 查看门店',
  });
}
