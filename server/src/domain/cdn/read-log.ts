/**
 * Reads an access log as a stream: plain or gzip (told by the first two bytes, 1f 8b, not by the
 * name or content type), split into lines, each parsed by core's `parseAccessLogLine` and added
 * to its hour. Memory is one chunk, one partial line and one object per hour touched, whatever
 * the file's size. The SHA-256 is of the decompressed bytes, so a file imported once plain and
 * once gzipped is the same file.
 */
import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import {
  HourlyUsage,
  type HourUsage,
  MALFORMED_REASONS,
  MAX_LINE_LENGTH,
  type MalformedKind,
  parseAccessLogLine,
} from '@wanxiang/core';
import { ApiError, invalidInput } from '../../http/envelope.js';

/** How many malformed lines are quoted back (with their numbers); the rest are only counted. */
export const MALFORMED_SAMPLES = 5;
const SAMPLE_CHARS = 200;

export interface MalformedSample {
  /** 1-based line number in the (decompressed) file. */
  line: number;
  reason: string;
  text: string;
}

export interface LogSummary {
  sha256: string;
  /** Non-blank lines read (counted + malformed). Blank lines (a trailing newline) are skipped. */
  lines: number;
  malformed: number;
  samples: MalformedSample[];
  /** Lines that had a cache verdict (HIT, MISS…): without any, the hit ratio is unknown. */
  cacheLines: number;
  hours: HourUsage[];
  requests: number;
  bytes: number;
  /** Decompressed bytes read. */
  size: number;
}

export const tooLarge = (maxBytes: number) =>
  new ApiError({
    status: 413,
    errorCode: 413,
    message: `日志文件过大：解压后最多 ${Math.floor(maxBytes / 2 ** 20)} MB，请拆分后分别导入`,
  });

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/** The source, decompressed when it starts with the gzip magic bytes. */
async function* decompressed(source: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  // At least two bytes to tell (a chunk may be one byte long).
  while (head.length < 2) {
    const next = await it.next();
    if (next.done) break;
    head = Buffer.concat([head, Buffer.from(next.value)]);
  }
  const rest: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const next = await it.next();
        return next.done ? next : { done: false, value: Buffer.from(next.value) };
      },
    }),
  };
  if (head.length < 2 || head[0] !== GZIP_MAGIC_0 || head[1] !== GZIP_MAGIC_1) {
    if (head.length > 0) yield head;
    yield* rest;
    return;
  }
  const gunzip = createGunzip();
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  const done = pipeline(
    Readable.from(
      (async function* () {
        yield head;
        yield* rest;
      })(),
    ),
    gunzip,
    out,
  );
  // Read while the pipeline runs; its failure (a corrupt gzip, a broken upload) is thrown below.
  let failure: unknown = null;
  done.catch((error) => {
    failure = error;
    out.destroy(error);
  });
  try {
    for await (const chunk of out) yield chunk as Buffer;
  } catch (error) {
    throw corrupt(failure ?? error);
  }
  await done.catch((error) => {
    throw corrupt(error);
  });
}

function corrupt(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('Z_') || code === 'ERR_ZLIB')
    return invalidInput({ file: 'gzip 压缩文件已损坏或不完整' }, 'gzip 压缩文件已损坏或不完整');
  return error;
}

/** Reads the whole log; throws 413 past `maxBytes` decompressed (nothing is stored by then). */
export async function readLog(source: AsyncIterable<Buffer | string>, maxBytes: number): Promise<LogSummary> {
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const usage = new HourlyUsage();
  const samples: MalformedSample[] = [];
  let size = 0;
  let lineNo = 0;
  let lines = 0;
  let malformed = 0;
  let cacheLines = 0;
  let requests = 0;
  let bytes = 0;
  let partial = '';
  // A line past MAX_LINE_LENGTH is dropped as it arrives (not kept growing) and counted once.
  let overlong = false;

  const bad = (kind: MalformedKind, text: string) => {
    malformed += 1;
    if (samples.length < MALFORMED_SAMPLES)
      samples.push({ line: lineNo, reason: MALFORMED_REASONS[kind], text: text.slice(0, SAMPLE_CHARS) });
  };
  const line = (raw: string) => {
    lineNo += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (overlong) {
      overlong = false;
      lines += 1;
      bad('tooLong', text);
      return;
    }
    if (text.trim() === '') return;
    lines += 1;
    const parsed = parseAccessLogLine(text);
    if (!parsed.ok) return bad(parsed.kind, text);
    const entry = parsed.entry;
    usage.add(entry);
    requests += 1;
    bytes += entry.bytes;
    if (entry.cache !== undefined && entry.cache !== '-') cacheLines += 1;
  };

  for await (const chunk of decompressed(source)) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    hash.update(chunk);
    const text = partial + decoder.write(chunk);
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      line(text.slice(start, nl));
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    partial = text.slice(start);
    if (partial.length > MAX_LINE_LENGTH) {
      overlong = true;
      partial = partial.slice(0, SAMPLE_CHARS);
    }
  }
  const last = partial + decoder.end();
  if (last !== '' || overlong) line(last);

  return {
    sha256: hash.digest('hex'),
    lines,
    malformed,
    samples,
    cacheLines,
    hours: usage.list(),
    requests,
    bytes,
    size,
  };
}
