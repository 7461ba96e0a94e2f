/** How a command ends when it does not succeed: the Chinese message, a hint, and an exit code. */

/**
 * Exit codes scripts can rely on. 4 for "sign in first" follows gh, so a script can tell an
 * expired login from a failed operation.
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  authRequired: 4,
  /** 128 + SIGINT, as shells report an interrupted command. */
  cancelled: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface CliErrorOptions {
  exitCode?: ExitCodeValue;
  /** The fix, on its own line after the message. */
  hint?: string;
  /** The message was already shown (e.g. by the login machine's notice): only exit. */
  reported?: boolean;
}

export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;
  readonly reported: boolean;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message);
    this.exitCode = options.exitCode ?? ExitCode.failure;
    this.hint = options.hint;
    this.reported = options.reported ?? false;
  }
}

export const LOGIN_HINT = '请运行 `wanxiang login` 重新登录';

export function notSignedIn(apiUrl: string): CliError {
  return new CliError(`尚未登录 ${apiUrl}`, {
    exitCode: ExitCode.authRequired,
    hint: '请先运行 `wanxiang login` 登录',
  });
}
