/** `wanxiang get <resource> <id>`: one row. */
import type { Command } from 'commander';
import type { RowFormat } from '../output/rows';
import { parseId, resolveResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import type { Runtime } from '../runtime';
import {
  chosenFormat,
  clientOf,
  connect,
  formatOption,
  jsonOption,
  namedResource,
  RESOURCE_ARGUMENT,
  showRow,
  tolerateUnknownResource,
} from './resource-context';

export function registerGet(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'get');
  const def = named?.def;
  const command = program
    .command('get')
    .description(def ? `显示一条${def.title}（${def.name}）的全部字段` : '显示一条记录的全部字段')
    .argument('<resource>', RESOURCE_ARGUMENT)
    .argument('<id>', '记录 ID')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
示例：
  $ wanxiang get ${def?.name ?? 'stores'} 12
  $ wanxiang get ${def?.name ?? 'orders'} 12 --json | jq .updatedAt`,
    );
  tolerateUnknownResource(command, named);
  command.action(
    async (token: string, idText: string, options: { format: RowFormat; json?: boolean }, cmd: Command) => {
      const resource = resolveResource(token);
      const id = parseId(idText);
      const client = clientOf(connect(runtime, cmd), resource);
      await showRow(runtime, client, await client.get(id), chosenFormat(options));
    },
  );
}
