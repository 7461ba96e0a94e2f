import type { Command } from 'commander';
import { savedLogin } from '../config/credentials';
import { notSignedIn } from '../errors';
import { formatUser } from '../io/user-text';
import type { Runtime } from '../runtime';

export function registerWhoami(program: Command, runtime: Runtime): void {
  program
    .command('whoami')
    .description('显示当前登录的用户：用户名、昵称、角色和权限')
    .option('--json', '以 JSON 输出到标准输出（供脚本解析）')
    .addHelpText(
      'after',
      `
示例：
  $ wanxiang whoami
  $ wanxiang whoami --json | jq -r '.roles[]'`,
    )
    .action(async (options: { json?: boolean }, command: Command) => {
      const server = runtime.server(command.optsWithGlobals().apiUrl);
      // Without a saved token the server would only answer 401; say so without asking it.
      const saved = savedLogin(runtime.credentials, server.apiUrl);
      if (!saved) throw notSignedIn(server.apiUrl);
      const user = await server.auth.currentUser();
      runtime.io.stdout.write(
        options.json ? `${JSON.stringify(user, null, 2)}\n` : formatUser(user, server.apiUrl, saved.expire),
      );
    });
}
