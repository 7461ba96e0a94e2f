/**
 * Streams `GET /api/admin/<resource>/export` to a file or stdout with constant memory: the
 * response body flows through a row counter into the destination with backpressure, never held
 * whole. An answer that is not the export (401, 403, a revoked session …) goes through core's
 * error catalogue like every other request, so it ends the command the same way.
 */
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { classify, HTTP_TIMEOUT_MS, type HttpPorts, runEffects } from '@wanxiang/core';
import { CliError, ExitCode } from '../errors';
import { failureReason, networkFailure } from '../io/network-failure';
import { RowCounter } from './row-counter';

export type ExportFormat = 'csv' | 'ndjson';

export interface ExportSource {
  apiUrl: string;
  /** Path and query below the API URL (core's `exportPath`). */
  path: string;
  token: string | null;
  ports: HttpPorts;
}

export type Destination = { kind: 'file'; path: string } | { kind: 'stdout'; stream: Writable };

export interface ExportOutcome {
  rows: number;
  bytes: number;
  seconds: number;
  /** The reader of stdout went away (`| head`): the command still succeeded. */
  readerClosed: boolean;
}

/** No byte for this long mid-export: the server or the network has stalled. */
const IDLE_MS = 60_000;

const ACCEPT: Record<ExportFormat, string> = {
  csv: 'text/csv, application/json;q=0.5',
  ndjson: 'application/x-ndjson, application/json;q=0.5',
};

export async function downloadExport(
  source: ExportSource,
  format: ExportFormat,
  destination: Destination,
  hooks: { onStart?(total: number | null): void; onChunk?(rows: number, bytes: number): void } = {},
): Promise<ExportOutcome> {
  const started = performance.now();
  // A bad output path fails before the server starts an export nobody can keep.
  const file = destination.kind === 'file' ? await openPart(destination.path) : null;
  const controller = new AbortController();
  let cause: 'timeout' | 'idle' | 'interrupt' | null = null;
  const stop = (why: typeof cause) => {
    cause ??= why;
    controller.abort();
  };
  const interrupt = () => stop('interrupt');
  process.once('SIGINT', interrupt);
  const idle = setTimeout(() => stop('idle'), IDLE_MS);

  try {
    const response = await request(
      source,
      format,
      controller.signal,
      () => stop('timeout'),
      () => cause,
    );
    const header = response.headers.get('x-total-count');
    hooks.onStart?.(header !== null && /^\d+$/.test(header) ? Number(header) : null);

    const counter = new RowCounter(format, () => {
      idle.refresh();
      hooks.onChunk?.(counter.rows, counter.bytes);
    });
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    let readerClosed = false;
    try {
      const sink = destination.kind === 'stdout' ? destination.stream : (file as PartFile).stream;
      // stdout stays open: the process owns it, and the summary follows on stderr.
      await pipeline(body, counter, sink, { signal: controller.signal, end: destination.kind !== 'stdout' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
        readerClosed = true;
        controller.abort();
      } else {
        throw interrupted(error, cause, file === null);
      }
    }
    if (file) renameSync(file.part, file.path);
    return {
      rows: counter.rows,
      bytes: counter.bytes,
      seconds: (performance.now() - started) / 1000,
      readerClosed,
    };
  } catch (error) {
    if (file) {
      file.stream.destroy();
      rmSync(file.part, { force: true });
    }
    throw error;
  } finally {
    clearTimeout(idle);
    process.removeListener('SIGINT', interrupt);
  }
}

async function request(
  source: ExportSource,
  format: ExportFormat,
  signal: AbortSignal,
  onTimeout: () => void,
  cause: () => string | null,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT[format] };
  if (source.token) headers.Authorization = `Bearer ${source.token}`;
  // The answer's headers must come within the client's usual timeout; the body may take long.
  const timer = setTimeout(onTimeout, HTTP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${source.apiUrl}${source.path}`, { headers, signal });
  } catch (error) {
    if (cause() === 'interrupt') throw cancelled();
    if (cause() === 'timeout')
      throw new CliError(`万象服务 ${source.apiUrl} 在 ${HTTP_TIMEOUT_MS / 1000} 秒内没有响应导出请求`);
    throw networkFailure(error, source.apiUrl);
  } finally {
    clearTimeout(timer);
  }

  const type = response.headers.get('content-type') ?? '';
  if (response.ok && response.body && !type.includes('application/json')) return response;
  // An envelope (an error, or a session ended by an administrator): small, read whole.
  const body: unknown = await response.json().catch(() => null);
  const outcome = classify(response.status, body, 'query');
  runEffects(outcome.effects, source.ports);
  if (outcome.result === 'reject') throw outcome.error;
  throw new CliError(`服务端没有返回导出数据（HTTP ${response.status}，${type || '无内容类型'}）`);
}

const cancelled = () => new CliError('已取消导出', { exitCode: ExitCode.cancelled });

function interrupted(error: unknown, cause: string | null, toStdout: boolean): CliError {
  if (cause === 'interrupt') return cancelled();
  const partial = toStdout ? '；已输出的内容不完整' : '；未保存不完整的文件';
  if (cause === 'idle') return new CliError(`导出中断：服务端 ${IDLE_MS / 1000} 秒没有发送数据${partial}`);
  const code = (error as NodeJS.ErrnoException).code;
  if (code && /^E[A-Z]+$/.test(code) && (error as { syscall?: string }).syscall === 'write') {
    return new CliError(`导出中断：写入失败（${code}）${partial}`);
  }
  return new CliError(`导出中断：${failureReason(error)}${partial}`);
}

interface PartFile {
  path: string;
  part: string;
  stream: WriteStream;
}

/** Written beside the target and renamed over it at the end: a failed export leaves no half file. */
async function openPart(path: string): Promise<PartFile> {
  const part = join(dirname(path), `.${basename(path)}.${process.pid}.part`);
  const stream = createWriteStream(part);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error: NodeJS.ErrnoException) =>
      reject(new CliError(`无法写入 ${path}（${error.code ?? error.message}）`)),
    );
  });
  return { path, part, stream };
}
