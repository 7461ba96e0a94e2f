/**
 * `wanxiang action <resource> <id> <action>`: runs one of the registry's domain actions
 * (`stores 3 open`, `orders 12 accept`, `users 5 resetPassword --password …`); a collection
 * action takes no ID (`exchangeCodes generate --batch 春节 --template-id 4 --count 500`).
 */
import type { ActionDef, ResourceDef } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { confirmOrRefuse } from '../io/confirm';
import type { RowFormat } from '../output/rows';
import { actionFlags, addFlags, kebabCase } from '../registry/field-flags';
import { lookupAction, parseId, resolveAction, resolveResource } from '../registry/find';
import type { Invocation } from '../registry/invocation';
import { actionBody, type BodyOptions } from '../registry/request-body';
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

interface ActionOptions extends BodyOptions {
  yes?: boolean;
  format: RowFormat;
  json?: boolean;
}

export function registerAction(program: Command, runtime: Runtime, invocation: Invocation): void {
  const named = namedResource(invocation, 'action');
  const def = named?.def;
  // `<resource> <id> <action>`, or `<resource> <action>` for a collection action.
  const actionToken = named ? (invocation.operands[2] ?? invocation.operands[1]) : undefined;
  const chosen = def && actionToken !== undefined ? lookupAction(def, actionToken) : undefined;
  const flags = chosen ? actionFlags(chosen) : [];

  const command = program
    .command('action')
    .description(
      chosen && def
        ? `对一条${def.title}执行「${chosen.label}」（${chosen.name}）`
        : def
          ? `对一条${def.title}（${def.name}）执行操作`
          : '对一条记录执行业务操作（如门店营业、订单接单）',
    )
    .argument('<resource>', RESOURCE_ARGUMENT)
    .argument('<id>', '记录 ID；对整个资源的操作（如 exchangeCodes generate）不写 ID')
    .argument('[action]', '操作名（`wanxiang resources <资源>` 列出每个资源的操作）')
    .option('--data <JSON|@文件>', '操作参数：JSON 文本，@文件 或 @-（标准输入）')
    .option('-y, --yes', '需要确认的操作不再询问（不在终端里运行时必须给出）')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption());
  addFlags(command, flags);
  tolerateUnknownResource(command, named);
  // An unknown action name is reported by the action itself, whatever flags follow it.
  if (def && actionToken !== undefined && !chosen) command.allowUnknownOption().allowExcessArguments();
  command
    .addHelpText('after', actionHelp(def, chosen))
    .action(
      async (
        token: string,
        idText: string,
        actionName: string | undefined,
        options: ActionOptions,
        cmd: Command,
      ) => {
        const resource = resolveResource(token);
        if (actionName === undefined) {
          if (/^\d+$/.test(idText.trim())) {
            throw new CliError('缺少操作名', {
              exitCode: ExitCode.usage,
              hint: `\`wanxiang resources ${resource.name}\` 列出${resource.title}的操作`,
            });
          }
          const action = resolveAction(resource, idText);
          if (action.scope !== 'collection') {
            throw new CliError(`「${action.label}」须对一条记录执行：缺少记录 ID`, {
              exitCode: ExitCode.usage,
              hint: `wanxiang action ${resource.name} <ID> ${action.name}`,
            });
          }
          const body = await actionBody(action, flags, options, runtime.io.stdin);
          if (action.confirm) {
            const what = `对${resource.title}「${action.label}」`;
            await confirmOrRefuse(runtime.io, { what, question: `${what}：${action.confirm}` }, options.yes);
          }
          const answer = await clientOf(connect(runtime, cmd), resource).collectionAction(action.name, body);
          runtime.io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
          return;
        }
        const id = parseId(idText);
        const action = resolveAction(resource, actionName);
        if (action.scope === 'collection') {
          throw new CliError(`「${action.label}」是对整个${resource.title}的操作，不写记录 ID`, {
            exitCode: ExitCode.usage,
            hint: `wanxiang action ${resource.name} ${action.name}`,
          });
        }
        const body = await actionBody(action, flags, options, runtime.io.stdin);
        if (action.confirm) {
          const what = `对${resource.title} #${id}「${action.label}」`;
          await confirmOrRefuse(runtime.io, { what, question: `${what}：${action.confirm}` }, options.yes);
        }
        const client = clientOf(connect(runtime, cmd), resource);
        await showRow(runtime, client, await client.action(id, action.name, body), chosenFormat(options));
      },
    );
}

function actionHelp(def: ResourceDef | undefined, chosen: ActionDef | undefined): string {
  const lines = [''];
  if (def && !chosen) {
    const actions = def.actions ?? [];
    lines.push(
      actions.length > 0
        ? `${def.title}的操作：\n${actions.map((a) => `  ${a.name.padEnd(16)}${a.label}${a.scope === 'collection' ? '（不写 ID）' : ''}${a.confirm ? '（需确认）' : ''}`).join('\n')}`
        : `${def.title}没有可执行的操作`,
      '',
    );
  }
  if (chosen?.confirm) lines.push(`执行前确认：${chosen.confirm}`, '');
  const resource = def?.name ?? 'stores';
  const action = chosen?.name ?? def?.actions?.[0]?.name ?? 'open';
  const inputs = Object.entries(chosen?.input ?? {})
    .filter(([, field]) => field.required)
    .map(([name]) => ` --${kebabCase(name)} …`)
    .join('');
  lines.push(
    '示例：',
    `  $ wanxiang action ${resource}${chosen?.scope === 'collection' ? '' : ' 3'} ${action}${inputs}${chosen?.confirm ? ' --yes' : ''}`,
  );
  if (!def)
    lines.push(
      '  $ wanxiang action orders 1024 accept --json',
      '  $ wanxiang action users 5 resetPassword --data \'{"password": "…"}\'',
    );
  return lines.join('\n');
}
