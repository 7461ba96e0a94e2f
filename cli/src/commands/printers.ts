/**
 * `wanxiang printers test <id>`: prints the test page on a receipt printer and says whether the
 * printer took it (exit 0) or why not (exit 1, the server's Chinese reason: 打印机连接超时…), so
 * a shop's setup can be checked from a terminal or a script.
 */
import type { Row } from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError } from '../errors';
import { parseId } from '../registry/find';
import type { Runtime } from '../runtime';
import { chosenFormat, connect, formatOption, jsonOption } from './resource-context';

export function registerPrinters(program: Command, runtime: Runtime): void {
  const group = program.command('printers').description('小票打印机的常用任务');
  group
    .command('test')
    .description('打印测试页：打印机收下则成功（退出码 0），否则给出原因（退出码 1）')
    .argument('<id>', '打印机 ID（`wanxiang list printers` 查看）')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang printers test 3\n  $ wanxiang printers test 3 --json | jq .status',
    )
    .action(async (idText: string, options: { format: 'table' | 'json'; json?: boolean }, cmd: Command) => {
      const id = parseId(idText);
      const server = connect(runtime, cmd);
      const answer = await server.http.request<{ data: Row; message?: string }>(
        `/api/admin/printers/${id}/testPrint`,
        {
          method: 'POST',
          body: {},
        },
      );
      const job = answer.data;
      if (chosenFormat(options) === 'json') runtime.io.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
      if (job.status !== 'done')
        throw new CliError(`测试页没有打印出来：${job.error ?? answer.message ?? job.status}`);
      if (chosenFormat(options) !== 'json') runtime.io.stdout.write(`测试页已打印（打印任务 #${job.id}）\n`);
    });
}
