/**
 * The one place a failed command becomes stderr text and an exit code. core's catalogue may
 * already have shown the failure (登录超时 …, 系统错误 …) through the notifier; then only the
 * fix is added, never the same message twice.
 */
import { isApiError, messages } from '@wanxiang/core';
import { CliError, ExitCode, type ExitCodeValue, LOGIN_HINT } from './errors';
import { isNetworkFailure, networkFailure } from './io/network-failure';
import type { Runtime } from './runtime';

export function report(error: unknown, runtime: Runtime): ExitCodeValue {
  const { notifier, io } = runtime;
  const show = (message: string, hint?: string) => {
    notifier.notify('error', message);
    if (hint) io.stderr.write(`  ${hint}\n`);
  };

  if (error instanceof CliError) {
    if (!error.reported) show(error.message, error.hint);
    else if (error.hint) io.stderr.write(`  ${error.hint}\n`);
    return error.exitCode;
  }
  if (isApiError(error)) {
    if (runtime.sessionEnded) {
      if (notifier.problemShown) io.stderr.write(`  ${LOGIN_HINT}\n`);
      else show(error.message, LOGIN_HINT);
      return ExitCode.authRequired;
    }
    if (!notifier.problemShown) {
      const fields = Object.entries(error.fields).map(([field, message]) => `${field}：${message}`);
      show(`${error.message}（${error.errorCode}）`, fields.join('\n  ') || undefined);
    }
    return ExitCode.failure;
  }
  if (isNetworkFailure(error)) {
    const failure = networkFailure(error, runtime.apiUrl ?? '');
    show(failure.message, failure.hint);
    return failure.exitCode;
  }
  // A bug, not an answer from the server: say so, and give the details to whoever reports it.
  show(`意外错误：${error instanceof Error ? error.message : String(error)}`);
  if (io.env.WANXIANG_DEBUG && error instanceof Error && error.stack) {
    io.stderr.write(`${error.stack}\n`);
  }
  return ExitCode.failure;
}

/** A command that swallowed the failure still must not exit 0 once its session is over. */
export function reportEndedSession(runtime: Runtime): ExitCodeValue {
  if (!runtime.notifier.problemShown) runtime.notifier.notify('error', messages.sessionRevoked);
  runtime.io.stderr.write(`  ${LOGIN_HINT}\n`);
  return ExitCode.authRequired;
}
