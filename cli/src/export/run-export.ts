/**
 * One export, as `wanxiang export` and `wanxiang orders export` run it: the signed-in server,
 * the export path with the list's filters (core's `exportPath`), the stream to its destination,
 * progress on stderr, and a summary line at the end.
 */
import type { ListParams, ResourceDef } from '@wanxiang/core';
import type { Command } from 'commander';
import { clientOf, connect } from '../commands/resource-context';
import { CliError, ExitCode } from '../errors';
import type { Runtime } from '../runtime';
import { type Destination, downloadExport, type ExportFormat } from './download';
import { count, createProgress, formatBytes, formatSeconds, type Progress } from './progress';

export interface ExportOptions {
  format?: string;
  output?: string;
  /** undefined: shown when stderr is a terminal. */
  progress?: boolean;
}

export async function runExport(
  runtime: Runtime,
  command: Command,
  def: ResourceDef,
  params: Omit<ListParams, 'page' | 'limit' | 'cursor'>,
  options: ExportOptions,
): Promise<void> {
  const { io } = runtime;
  const format = exportFormat(options);
  const toFile = options.output !== undefined && options.output !== '-';
  const destination: Destination = toFile
    ? { kind: 'file', path: options.output as string }
    : { kind: 'stdout', stream: io.stdout };

  const server = connect(runtime, command);
  const client = clientOf(server, def);
  const stderr = io.stderr as typeof io.stderr & { isTTY?: boolean };
  const showProgress = options.progress ?? Boolean(stderr.isTTY);

  let progress: Progress | null = null;
  let total: number | null = null;
  if (showProgress) {
    // The bar's 100 %: the list's total (a maintained count), unless the export says it itself.
    const first = await client.list({ ...params, limit: 1 });
    if (!first.success) throw first.error;
    total = first.count;
  }

  const outcome = await downloadExport(
    {
      apiUrl: server.apiUrl,
      path: client.exportPath(format, params),
      token: server.tokenStore.get(),
      ports: server.http.ports,
    },
    format,
    destination,
    {
      onStart(announced) {
        if (!showProgress) return;
        total = announced ?? total;
        progress = createProgress(io.stderr, { inPlace: Boolean(stderr.isTTY), total });
      },
      onChunk(rows, bytes) {
        progress?.update(rows, bytes);
      },
    },
  ).finally(() => (progress as Progress | null)?.stop());

  if (outcome.readerClosed) return;
  const rate = outcome.seconds > 0 ? Math.round(outcome.rows / outcome.seconds) : outcome.rows;
  const where = toFile ? ` → ${options.output}` : '';
  runtime.notifier.notify(
    'success',
    `已导出 ${count(outcome.rows)} 行${def.title}（${formatBytes(outcome.bytes)}，${formatSeconds(outcome.seconds)}，${count(rate)} 行/秒）${where}`,
  );
}

/** `--format`, else the output file's extension (`.ndjson`, `.jsonl`), else CSV. */
function exportFormat(options: ExportOptions): ExportFormat {
  const given = options.format;
  if (given === 'csv' || given === 'ndjson') return given;
  if (given !== undefined) {
    throw new CliError(`不支持的导出格式 ${given}`, { exitCode: ExitCode.usage, hint: '可选：csv、ndjson' });
  }
  return /\.(ndjson|jsonl)$/i.test(options.output ?? '') ? 'ndjson' : 'csv';
}
