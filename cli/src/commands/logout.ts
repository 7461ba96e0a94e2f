import { messages } from '@wanxiang/core';
import type { Command } from 'commander';
import { savedLogin } from '../config/credentials';
import { notSignedIn } from '../errors';
import type { Runtime } from '../runtime';

export function registerLogout(program: Command, runtime: Runtime): void {
  program
    .command('logout')
    .description('退出登录：在服务端作废令牌，并删除本机保存的令牌')
    .addHelpText(
      'after',
      `
示例：
  $ wanxiang logout
  $ wanxiang logout --api-url https://wanxiang.example.com`,
    )
    .action(async (_options: unknown, command: Command) => {
      const server = runtime.server(command.optsWithGlobals().apiUrl);
      if (!savedLogin(runtime.credentials, server.apiUrl)) throw notSignedIn(server.apiUrl);
      await server.auth.signOut();
      // Only after the server revoked it: deleting a token the server still honours would leave
      // a live credential nobody can revoke any more; on failure the operator can retry.
      server.tokenStore.remove();
      runtime.notifier.notify('success', `${messages.signedOut} ${server.apiUrl}`);
    });
}
