/**
 * A file the user named for upload (`wanxiang cdn import`, `wanxiang restore`): its size in bytes,
 * or a usage error (exit 2) naming it when it is missing, unreadable or not a regular file.
 */
import { statSync } from 'node:fs';
import { CliError, ExitCode } from '../errors';

export function uploadFileSize(file: string, what: string): number {
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    return st.size;
  } catch {
    throw new CliError(`无法读取${what}：${file}`, { exitCode: ExitCode.usage });
  }
}
