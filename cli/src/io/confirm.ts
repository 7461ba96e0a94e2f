/**
 * Asking before something that cannot be undone (delete, a dangerous action), as gh does: in a
 * terminal the operator answers; anywhere else the command needs `--yes` and refuses without it,
 * so a script never hangs on a question nobody sees.
 */
import { CliError, ExitCode } from '../errors';
import type { Io } from '../runtime';
import { createPrompter } from './prompter';

export interface Confirmation {
  /** What needs confirming, short: `删除门店「朝阳门店」（#12）`, `关店`. */
  what: string;
  /** The question asked in a terminal. */
  question: string;
}

export async function confirmOrRefuse(
  io: Io,
  { what, question }: Confirmation,
  yes: boolean | undefined,
): Promise<void> {
  if (yes) return;
  if (!io.stdin.isTTY) {
    throw new CliError(`需要确认：${what}`, {
      exitCode: ExitCode.usage,
      hint: '不在终端里运行时不会提问；确认无误请加 --yes',
    });
  }
  const prompter = createPrompter(io.stdin, io.stderr);
  try {
    const answer = await prompter.ask(`${question} [y/N] `);
    if (!/^(y|yes|是)$/i.test(answer)) throw new CliError('已取消，未做任何修改');
  } finally {
    prompter.close();
  }
}
