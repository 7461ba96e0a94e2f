/**
 * A file the user named for upload (`wanxiang cdn import`, `wanxiang restore`): its size in bytes,
 * or a usage error (exit 2) naming it when it is missing, unreadable or not a regular file; and
 * the request that streams it to the server.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
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

/**
 * A POST whose body is the file, read as it is sent (a backup may be larger than the memory one
 * would want to hold), with its size declared so the server can refuse an oversized one at once.
 */
export function fileUploadRequest(options: {
  file: string;
  size: number;
  contentType: string;
  token: string | null;
}): RequestInit {
  return {
    method: 'POST',
    headers: {
      authorization: `Bearer ${options.token ?? ''}`,
      'content-type': options.contentType,
      'content-length': String(options.size),
      accept: 'application/json',
    },
    body: Readable.toWeb(createReadStream(options.file)) as ReadableStream,
    // Node's fetch sends a stream body only half-duplex.
    duplex: 'half',
  } as RequestInit;
}
