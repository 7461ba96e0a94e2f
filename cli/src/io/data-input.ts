/**
 * `--data`: a whole request body as JSON text, `@file.json`, or `@-` for standard input, the way
 * curl and gh take bodies. Anything but a JSON object is a usage error.
 */
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CliError, ExitCode } from '../errors';

export async function readDataOption(value: string, stdin: Readable): Promise<Record<string, unknown>> {
  let text: string;
  let source = '--data';
  if (value === '@-') {
    text = await readAll(stdin);
    source = '标准输入';
  } else if (value.startsWith('@')) {
    const path = value.slice(1);
    source = path;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError(
        `无法读取 --data 文件 ${path}${code === 'ENOENT' ? '：文件不存在' : `（${code}）`}`,
        {
          exitCode: ExitCode.usage,
        },
      );
    }
  } else {
    text = value;
  }
  let parsed: unknown;
  try {
    // A UTF-8 BOM (files saved by Windows editors) is not part of the JSON.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(`${source} 不是有效的 JSON：${(error as Error).message}`, {
      exitCode: ExitCode.usage,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CliError(`${source} 须为 JSON 对象，如 {"name": "朝阳门店"}`, { exitCode: ExitCode.usage });
  }
  return parsed as Record<string, unknown>;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
