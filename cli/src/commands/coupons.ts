/**
 * `wanxiang coupons issue`: an operator's 发放 from the command line — one coupon of a template to
 * each user of a list (a file of user IDs or mobile numbers, standard input, or the command line),
 * through the same `couponTemplates … issue` action as the back office's button. Every user is
 * found before anything is issued, and core's issue rule is checked on the template first (停用,
 * 已过期, not enough left), so a list that cannot be served is refused whole. The server issues
 * at most MAX_ISSUE_USERS users a call: a longer list goes in parts, and a part the server
 * refuses (每人限领) stops the run with how many were served before it.
 */
import {
  type CouponTemplateFacts,
  getResource,
  issueDecision,
  MAX_ISSUE_USERS,
  type ResourceClient,
  type Row,
} from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { readUsersOption, type UserList } from '../io/user-list';
import { parseId } from '../registry/find';
import type { Runtime } from '../runtime';
import { clientOf, connect, jsonOption } from './resource-context';

interface IssueOptions {
  template: string;
  users: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Filter values a list request takes at once (`id_in`, `phone_in`). */
const LOOKUP_CHUNK = 200;

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** The IDs of the listed users, in the list's order; a user that does not exist refuses the run. */
async function resolveUsers(users: ResourceClient, list: UserList): Promise<number[]> {
  const found = new Map<string, number>();
  const lookup = async (field: 'id' | 'phone', values: readonly (string | number)[]) => {
    for (const part of chunks(values, LOOKUP_CHUNK)) {
      for await (const row of users.iterate({ filters: { [`${field}_in`]: part.join(',') }, limit: 500 })) {
        found.set(`${field}:${row[field]}`, row.id);
      }
    }
  };
  await lookup('id', list.ids);
  await lookup('phone', list.phones);
  const missing = [
    ...list.ids.filter((id) => !found.has(`id:${id}`)).map((id) => `#${id}`),
    ...list.phones.filter((phone) => !found.has(`phone:${phone}`)),
  ];
  if (missing.length > 0) {
    throw new CliError(
      `找不到 ${missing.length} 位用户：${missing.slice(0, 10).join('、')}${missing.length > 10 ? ' …' : ''}`,
      { hint: '未发放任何优惠券。手机号须与用户资料中的一致；改好名单后重试' },
    );
  }
  const ids = [...list.ids, ...list.phones.map((phone) => found.get(`phone:${phone}`) as number)];
  return [...new Set(ids)];
}

export function registerCoupons(program: Command, runtime: Runtime): void {
  const group = program
    .command('coupons')
    .description('优惠券的常用任务（运营快捷命令）')
    .addHelpText('after', '\n示例：\n  $ wanxiang coupons issue --template 4 --users @会员名单.txt');
  group
    .command('issue')
    .description('把一种优惠券发给一批用户：每人一张，发行总量和每人限领照常计算')
    .requiredOption('--template <ID>', '优惠券 ID（`wanxiang list couponTemplates` 列出）')
    .requiredOption(
      '--users <@文件|ID,…>',
      '用户：@文件（每行一个用户 ID 或手机号）、@-（从标准输入读）或用逗号分隔的 ID、手机号',
    )
    .option('--dry-run', '只核对名单和优惠券，不发放')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
名单文件：每行一个用户 ID 或 11 位手机号（可带 +86、空格、连字符）；空行和 # 开头的行忽略，
重复的用户只发一次。先找齐所有用户、核对优惠券（停用、过期、余量），有问题则一张都不发。
一次最多发给 ${MAX_ISSUE_USERS} 位用户，名单更长时分批发放；某批被拒（如每人限领）时停止，
并说明之前已发放的人数。

示例：
  $ wanxiang coupons issue --template 4 --users @会员名单.txt
  $ wanxiang coupons issue --template 4 --users 12,15,13800138000
  $ cut -d, -f2 新客.csv | wanxiang coupons issue --template 4 --users @-
  $ wanxiang coupons issue --template 4 --users @会员名单.txt --dry-run
  $ wanxiang coupons issue --template 4 --users @会员名单.txt --json

退出码：0 全部发放；1 服务端拒绝、用户不存在或中途停止；2 用法错误（名单无法识别等）；4 需要登录`,
    )
    .action(async (options: IssueOptions, cmd: Command) => {
      const templateId = parseId(options.template);
      const list = await readUsersOption(options.users, runtime.io.stdin);
      const server = connect(runtime, cmd);
      const templates = clientOf(server, getResource('couponTemplates'));
      const template = await templates.get(templateId);
      const userIds = await resolveUsers(clientOf(server, getResource('users')), list);
      const name = String(template.name);

      // core's issue rule on what the template says now; 每人限领 is the server's to count.
      const decision = issueDecision(template as unknown as CouponTemplateFacts, {
        perUser: 1,
        users: userIds.map((userId) => ({ userId, held: 0 })),
        now: Date.now(),
      });
      if (!decision.ok) {
        throw new CliError(`「${name}」不能发放：${decision.message}`, { hint: '未发放任何优惠券' });
      }
      if (options.dryRun) {
        const text = `名单核对无误：${userIds.length} 位用户，将各发放「${name}」一张（未发放）`;
        runtime.io.stdout.write(
          options.json
            ? `${JSON.stringify({ templateId, name, dryRun: true, userIds }, null, 2)}\n`
            : `${text}\n`,
        );
        return;
      }

      let issued = 0;
      let last: Row = template;
      for (const part of chunks(userIds, MAX_ISSUE_USERS)) {
        try {
          last = await templates.action(templateId, 'issue', { userIds: part });
        } catch (error) {
          if (issued === 0) throw error;
          const reason = error instanceof Error ? error.message : String(error);
          throw new CliError(
            `已向 ${issued} 位用户发放「${name}」，其余 ${userIds.length - issued} 位未发放：${reason}`,
            {
              exitCode: ExitCode.failure,
            },
          );
        }
        issued += part.length;
        if (userIds.length > MAX_ISSUE_USERS) runtime.io.stderr.write(`已发放 ${issued}/${userIds.length}\n`);
      }
      if (options.json) {
        runtime.io.stdout.write(
          `${JSON.stringify({ templateId, name, issued, issuedQty: last.issuedQty, userIds }, null, 2)}\n`,
        );
      } else {
        runtime.io.stdout.write(
          `已向 ${issued} 位用户各发放「${name}」一张（该券累计已发放 ${last.issuedQty} 张）\n`,
        );
      }
    });
}
