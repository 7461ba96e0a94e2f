/** `wanxiang delete <resource> <id>`: asks first in a terminal; scripts say `--yes`. */
import { canDelete } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { confirmOrRefuse } from '../io/confirm';
import { parseId, resolveResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import type { Runtime } from '../runtime';
import {
  clientOf,
  connect,
  namedResource,
  RESOURCE_ARGUMENT,
  tolerateUnknownResource,
} from './resource-context';

export function registerDelete(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'delete');
  const def = named?.def;
  const command = program
    .command('delete')
    .description(
      def
        ? `删除一条${def.title}（${def.name}）${def.softDelete ? '：标记为已删除，历史记录中仍可见' : ''}`
        : '删除一条记录（在终端里先确认；脚本须加 --yes）',
    )
    .argument('<resource>', RESOURCE_ARGUMENT)
    .argument('<id>', '记录 ID')
    .option('-y, --yes', '不再询问，直接删除（不在终端里运行时必须给出）')
    .addHelpText(
      'after',
      `
示例：
  $ wanxiang delete ${def?.name ?? 'stores'} 12
  $ wanxiang delete ${def?.name ?? 'memberLevels'} 12 --yes`,
    );
  tolerateUnknownResource(command, named);
  command.action(async (token: string, idText: string, options: { yes?: boolean }, cmd: Command) => {
    const resource = resolveResource(token);
    const id = parseId(idText);
    if (!canDelete(resource)) {
      throw new CliError(`${resource.title}（${resource.name}）不能删除`, { exitCode: ExitCode.usage });
    }
    let what = `${resource.title} #${id}`;
    // A script without --yes is refused before anything is asked of the server.
    if (!options.yes && !runtime.io.stdin.isTTY)
      await confirmOrRefuse(runtime.io, { what: `删除${what}`, question: '' }, false);
    const client = clientOf(connect(runtime, cmd), resource);
    if (!options.yes) {
      // Name the row in the question: an id alone is easy to mistype.
      const row = await client.get(id);
      const shown = row[resource.displayField];
      if (typeof shown === 'string' && shown !== '') what = `${resource.title}「${shown}」（#${id}）`;
      await confirmOrRefuse(runtime.io, { what: `删除${what}`, question: `确定删除${what}？` }, false);
    }
    await client.remove(id);
  });
}
