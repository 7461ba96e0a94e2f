/**
 * The `wanxiang` program: global options, the commands, and the mapping of every outcome to
 * stderr text and an exit code (0 only on success).
 */
import { Command, CommanderError, Option } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { registerAction } from './commands/action';
import { registerBackup } from './commands/backup';
import { registerCdn } from './commands/cdn';
import { registerCoupons } from './commands/coupons';
import { registerDelete } from './commands/delete';
import { registerExport } from './commands/export';
import { registerGet } from './commands/get';
import { registerJobs } from './commands/jobs';
import { registerKeys } from './commands/keys';
import { registerList } from './commands/list';
import { registerLogin } from './commands/login';
import { registerLogout } from './commands/logout';
import { registerOrders } from './commands/orders';
import { registerPrinters } from './commands/printers';
import { registerResources } from './commands/resources';
import { registerSsl } from './commands/ssl';
import { registerWhoami } from './commands/whoami';
import { registerCreate, registerUpdate } from './commands/write';
import { API_URL_ENV, DEFAULT_API_URL } from './config/api-url';
import { CONFIG_DIR_ENV } from './config/config-dir';
import { ExitCode } from './errors';
import { chineseHelp, translateCommanderError } from './io/help-zh';
import { scanInvocation } from './registry/invocation';
import { report, reportEndedSession } from './report';
import { type Io, Runtime } from './runtime';

const ROOT_HELP = `
示例：
  $ wanxiang login
  $ wanxiang resources orders
  $ wanxiang list orders --status paid --limit 50
  $ wanxiang action stores 3 open
  $ wanxiang orders export --from 2024-05-01 --to 2024-05-31 --output orders.csv
  $ wanxiang coupons issue --template 4 --users @会员名单.txt
  $ wanxiang ssl check www.example.com
  $ wanxiang --api-url https://wanxiang.example.com whoami --json

环境变量：
  ${API_URL_ENV}     服务地址，同 --api-url
  WANXIANG_PASSWORD    login 的密码，同 --password
  ${CONFIG_DIR_ENV}  保存登录的目录（默认 $XDG_CONFIG_HOME/wanxiang 或 ~/.config/wanxiang，
                       Windows 为 %APPDATA%\\wanxiang）

退出码：
  0 成功；1 失败；2 用法错误；4 需要登录（未登录或登录已失效）；130 已取消`;

/** `argv` (without node and the script) names the resource whose fields become flags. */
export function createProgram(runtime: Runtime, argv: readonly string[] = []): Command {
  const { io } = runtime;
  const program = new Command('wanxiang');
  // Settings first: subcommands copy them when they are created.
  program
    .description('万象命令行：登录万象服务，查询、修改和导出后台数据，供运维和脚本使用')
    .version(pkg.version, '-V, --version', '显示版本号')
    .helpOption('-h, --help', '显示帮助')
    .helpCommand('help [command]', '显示某个命令的帮助')
    .addOption(
      new Option('--api-url <url>', `万象服务地址，默认为登录时保存的地址，否则 ${DEFAULT_API_URL}`).env(
        API_URL_ENV,
      ),
    )
    .configureHelp(chineseHelp)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(translateCommanderError(text)),
    })
    .showHelpAfterError('  运行 `wanxiang --help` 查看用法')
    // commander would call process.exit itself; the exit code is decided below instead.
    .exitOverride()
    .addHelpText('after', ROOT_HELP);

  program.commandsGroup('登录：');
  registerLogin(program, runtime);
  registerWhoami(program, runtime);
  registerLogout(program, runtime);

  // Every registry resource through the same commands; their flags come from its definition.
  const invocation = scanInvocation(argv);
  program.commandsGroup('数据：');
  registerResources(program, runtime);
  registerList(program, runtime, invocation);
  registerGet(program, runtime, invocation);
  registerCreate(program, runtime, invocation);
  registerUpdate(program, runtime, invocation);
  registerDelete(program, runtime, invocation);
  registerAction(program, runtime, invocation);
  registerExport(program, runtime, invocation);
  registerOrders(program, runtime);
  registerPrinters(program, runtime);
  registerCoupons(program, runtime);
  registerJobs(program, runtime);
  registerSsl(program, runtime);
  registerCdn(program, runtime);
  registerKeys(program, runtime);
  program.commandsGroup('运维：');
  registerBackup(program, runtime);
  return program;
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const runtime = new Runtime(io);
  try {
    await createProgram(runtime, argv).parseAsync(argv, { from: 'user' });
    return runtime.sessionEnded ? reportEndedSession(runtime) : ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end this way with code 0; usage errors were printed by commander.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return report(error, runtime);
  }
}

// A reader that stopped early (`wanxiang whoami | head -1`) is not a failure of the command.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

// exitCode rather than exit(): stdout and stderr finish writing before the process ends.
process.exitCode = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
