/**
 * A list of users as operators keep one: a file (or standard input) with one user a line — a
 * user ID or a mobile number — or the same comma-separated on the command line.
 *
 * - Blank lines and lines starting with `#` are ignored; a UTF-8 BOM and CRLF endings too.
 * - A mobile number is 11 digits starting with 1, optionally written with +86 / 86, spaces or
 *   dashes (`138 0013 8000`, `+86-138-0013-8000`); every other run of digits is a user ID.
 *   Decision: a user ID of 11 digits starting with 1 would read as a number — no such IDs exist.
 * - Repeats are dropped (a user is given a coupon once per run).
 */
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CliError, ExitCode } from '../errors';

export interface UserList {
  ids: number[];
  /** Mobile numbers as 11 digits. */
  phones: string[];
}

const MOBILE = /^(?:\+?86)?(1\d{10})$/;
const ID = /^[1-9]\d{0,14}$/;

/** What one entry is: an ID, a mobile number, or not a user (null). */
export function readUserEntry(text: string): { id: number } | { phone: string } | null {
  const compact = text.replace(/[\s-]/g, '');
  const mobile = MOBILE.exec(compact);
  if (mobile) return { phone: mobile[1] as string };
  if (ID.test(text.trim())) return { id: Number(text.trim()) };
  return null;
}

/**
 * The users of a text: one a line, and a line may hold several separated by commas. Unreadable
 * entries are a usage error naming where they are.
 */
export function parseUserList(text: string, source: string): UserList {
  const ids = new Set<number>();
  const phones = new Set<string>();
  const bad: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim().startsWith('#')) return;
    for (const part of line.split(/[,，]/)) {
      const item = part.trim();
      if (item === '') continue;
      const entry = readUserEntry(item);
      if (!entry) bad.push(lines.length > 1 ? `第 ${i + 1} 行「${item}」` : `「${item}」`);
      else if ('id' in entry) ids.add(entry.id);
      else phones.add(entry.phone);
    }
  });
  if (bad.length > 0) {
    const shown = bad.slice(0, 5).join('、');
    throw new CliError(
      `${source} 中有无法识别的用户：${shown}${bad.length > 5 ? ` 等 ${bad.length} 项` : ''}`,
      {
        exitCode: ExitCode.usage,
        hint: '每行一个用户 ID 或 11 位手机号；空行和 # 开头的行会被忽略',
      },
    );
  }
  if (ids.size === 0 && phones.size === 0)
    throw new CliError(`${source} 中没有用户`, { exitCode: ExitCode.usage });
  return { ids: [...ids], phones: [...phones] };
}

/** `--users`: `@file`, `@-` (standard input) or `12,15,13800138000`. */
export async function readUsersOption(value: string, stdin: Readable): Promise<UserList> {
  if (value === '@-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return parseUserList(Buffer.concat(chunks).toString('utf8'), '标准输入');
  }
  if (value.startsWith('@')) {
    const path = value.slice(1);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError(`无法读取用户文件 ${path}${code === 'ENOENT' ? '：文件不存在' : `（${code}）`}`, {
        exitCode: ExitCode.usage,
      });
    }
    return parseUserList(text, path);
  }
  return parseUserList(value, '--users');
}
