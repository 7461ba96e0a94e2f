/**
 * `wanxiang login`: scan-to-login (a QR code and a link, confirmed in a signed-in browser) when
 * run in a terminal without credentials, or with `--qr`; otherwise username, password and
 * captcha (asked with `--interactive`, or given as flags by scripts).
 */
import {
  format,
  formMessages,
  hasAdminAccess,
  type LoginOutput,
  memoryTokenStore,
  messages,
} from '@wanxiang/core';
import { type Command, Option } from 'commander';
import { type PasswordLoginPrompts, passwordLogin } from '../auth/password-login';
import { CliError, ExitCode } from '../errors';
import { createCaptchaFile } from '../io/captcha-file';
import { createPrompter, type Prompter } from '../io/prompter';
import { formatRoles } from '../io/user-text';
import type { Runtime, Server } from '../runtime';
import { scanLogin } from './login-qr';

export const PASSWORD_ENV = 'WANXIANG_PASSWORD';

interface LoginOptions {
  username?: string;
  password?: string;
  captchaCode?: string;
  /** undefined: ask only when stdin is a terminal. */
  interactive?: boolean;
  /** Scan-to-login even when stdin is not a terminal. */
  qr?: boolean;
}

export function registerLogin(program: Command, runtime: Runtime): void {
  program
    .command('login')
    .description('登录万象服务，在本机保存令牌（文件权限 0600）供之后的命令使用')
    .option('-u, --username <name>', messages.username)
    .addOption(
      new Option(
        '--password <password>',
        `${messages.password}；命令行参数对本机其他用户可见，脚本请用环境变量`,
      ).env(PASSWORD_ENV),
    )
    .option('--captcha-code <code>', '验证码：非交互登录时给出（每次登录都会取一张新验证码）')
    .option('--qr', '扫码登录：显示二维码和链接，在已登录的浏览器中确认（终端里不带选项时的默认方式）')
    .option('--interactive', '用户名密码登录，缺少的项逐一提问，即使标准输入不是终端（例如由管道回答）')
    .option('--no-interactive', '从不提问：缺少选项时直接报错退出')
    .addHelpText(
      'after',
      `
在终端里不带选项运行时使用扫码登录：终端显示二维码和确认链接，用已登录万象的手机扫码，
或在已登录的浏览器中打开链接，点击「确认登录」即可（二维码 2 分钟内有效）。
加 --interactive 则改为逐项询问用户名、密码（不回显）和验证码；验证码图片写入临时文件，
打开它查看。登录其他服务会替换本机保存的登录。

示例：
  $ wanxiang login
  $ wanxiang login --qr
  $ wanxiang login --interactive
  $ wanxiang login --api-url https://wanxiang.example.com
  $ ${PASSWORD_ENV}=*** wanxiang login --username admin --captcha-code 8kfw --no-interactive`,
    )
    .action(async (options: LoginOptions, command: Command) => {
      await login(runtime, options, command.optsWithGlobals().apiUrl);
    });
}

async function login(
  runtime: Runtime,
  options: LoginOptions,
  apiUrlOption: string | undefined,
): Promise<void> {
  // Signing in sends no token: an old, revoked one must not turn the sign-in into a 401.
  const pending = memoryTokenStore();
  const server = runtime.server(apiUrlOption, pending);

  // The one place a sign-in method is chosen.
  const result = usesScan(runtime, options)
    ? await scanLogin(runtime, server)
    : await withPassword(runtime, server, options);

  runtime.credentials.write({
    apiUrl: server.apiUrl,
    token: result.token,
    username: result.username,
    expire: result.expire,
  });
  pending.set(result.token);
  const user = await server.auth.currentUser();
  runtime.io.stderr.write(`已登录 ${server.apiUrl}：${user.username}，角色 ${formatRoles(user.roles)}\n`);
  // Not an error: a user without roles may still use their own (non-admin) API routes.
  if (!hasAdminAccess(user)) runtime.notifier.notify('warning', '该账号没有后台权限，管理命令会被拒绝');
}

/** `--qr`, or a terminal with no credentials given and no --interactive/--no-interactive. */
function usesScan(runtime: Runtime, options: LoginOptions): boolean {
  if (options.qr) return true;
  const credentialsGiven = Boolean(options.username || options.password || options.captchaCode);
  return !credentialsGiven && options.interactive === undefined && Boolean(runtime.io.stdin.isTTY);
}

async function withPassword(runtime: Runtime, server: Server, options: LoginOptions): Promise<LoginOutput> {
  const { io, notifier } = runtime;
  // An empty flag or WANXIANG_PASSWORD= counts as not given.
  const given = { username: options.username || undefined, password: options.password || undefined };
  const captchaCode = options.captchaCode || undefined;
  const missing = [
    given.username ? null : '--username',
    given.password ? null : `--password（或环境变量 ${PASSWORD_ENV}）`,
    captchaCode ? null : '--captcha-code',
  ].filter((flag): flag is string => flag !== null);
  const interactive = options.interactive ?? (missing.length > 0 && Boolean(io.stdin.isTTY));
  if (!interactive && missing.length > 0) {
    throw new CliError(`非交互登录缺少 ${missing.join('、')}`, {
      exitCode: ExitCode.usage,
      hint: '在终端里运行 `wanxiang login` 可逐项输入；脚本请给出这些选项',
    });
  }

  const prompter = interactive ? createPrompter(io.stdin, io.stderr) : null;
  const captchaFile = createCaptchaFile();
  try {
    prompter?.say(`登录 ${server.apiUrl}`);
    return await passwordLogin({
      auth: server.auth,
      notifier,
      credentials: {
        username: given.username ?? (await askUsername(prompter, '')),
        password: given.password ?? (await askPassword(prompter)),
      },
      ...(captchaCode ? { captchaCode } : {}),
      prompts: prompter ? interactivePrompts(prompter, captchaFile.show) : null,
    });
  } finally {
    prompter?.close();
    captchaFile.remove();
  }
}

function interactivePrompts(
  prompter: Prompter,
  showCaptcha: (dataUri: string) => string,
): PasswordLoginPrompts {
  return {
    async credentials(previous) {
      return { username: await askUsername(prompter, previous), password: await askPassword(prompter) };
    },
    async captchaCode(image) {
      prompter.say(`打开 ${showCaptcha(image)} 查看${messages.captchaCode}`);
      return prompter.ask(`${messages.captchaCode}（直接回车换一张）：`);
    },
  };
}

/** Asked again until answered; after a failed attempt, Enter keeps the previous username. */
async function askUsername(prompter: Prompter | null, previous: string): Promise<string> {
  if (!prompter) throw new Error('login: the username was neither given nor askable');
  for (;;) {
    const answer = await prompter.ask(
      previous ? `${messages.username}（${previous}）：` : `${messages.username}：`,
    );
    if (answer || previous) return answer || previous;
    prompter.say(format(formMessages.required, { label: messages.username }));
  }
}

async function askPassword(prompter: Prompter | null): Promise<string> {
  if (!prompter) throw new Error('login: the password was neither given nor askable');
  for (;;) {
    const answer = await prompter.askHidden(`${messages.password}：`);
    if (answer) return answer;
    prompter.say(format(formMessages.required, { label: messages.password }));
  }
}
