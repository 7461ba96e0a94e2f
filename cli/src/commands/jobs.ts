/**
 * `wanxiang jobs …`: monitor jobs from a terminal or cron — list them, look at one (uptime over
 * 24 h / 7 d / 30 d and its latest checks), check one now, pause and resume, and export a job's
 * check history. Everything goes through the admin API (monitorJobs read, its actions), so the
 * server's runner does the checking and the CLI only asks and prints.
 *
 * `jobs run` exits 0 only when the check found the job up, 1 otherwise (down, or failing within
 * its retries): `wanxiang jobs run 3 || notify` works in a script.
 */
import {
  type FieldDef,
  fieldText,
  formatDateTime,
  getResource,
  type Row,
  SYSTEM_FIELD_DEFS,
} from '@wanxiang/core';
import { type Command, Option } from 'commander';
import { CliError, ExitCode } from '../errors';
import { type ExportOptions, runExport } from '../export/run-export';
import { outputWidth } from '../io/terminal';
import { type RowFormat, renderList } from '../output/rows';
import { renderTable } from '../output/table';
import { type FieldFlag, valueHint } from '../registry/field-flags';
import { parseId } from '../registry/find';
import { listRequest } from '../registry/list-request';
import type { Runtime, Server } from '../runtime';
import { exportOptions } from './export';
import { chosenFormat, clientOf, connect, formatOption, jsonOption, showRow } from './resource-context';

const jobs = getResource('monitorJobs');
const runs = getResource('monitorRuns');

interface Run {
  id: number;
  status: string;
  httpStatus: number | null;
  latencyMs: number | null;
  message: string | null;
  important: boolean;
  at: string;
}

interface Uptime {
  h24: number | null;
  d7: number | null;
  d30: number | null;
}

const statusText = (value: unknown) => fieldText(jobs.fields.status as FieldDef, value);
const percent = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}%`);

/** `24h`, `7d`, `30m` → that long before now; a date (`2024-05-01 08:00`) as it is. */
export function sinceValue(text: string, now: number): string {
  const match = /^(\d+)\s*([mhd])$/i.exec(text.trim());
  if (!match) return text;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[
    (match[2] as string).toLowerCase() as 'm' | 'h' | 'd'
  ];
  return new Date(now - Number(match[1]) * unit).toISOString();
}

async function latestRuns(server: Server, id: number, limit: number): Promise<Run[]> {
  const answer = await server.http.request<{ data: Run[] }>(
    `/api/admin/monitorJobs/${id}/runs?limit=${limit}`,
    {},
  );
  return answer.data;
}

function runLine(run: Run): string {
  const latency = run.latencyMs === null ? '' : `（${run.latencyMs} 毫秒）`;
  return `${statusText(run.status)}：${run.message ?? ''}${latency}`;
}

function renderJob(row: Row, uptime: Uptime, recent: Run[], width: number): string {
  const out: string[] = [];
  out.push(`监控任务 #${row.id}  ${row.name}  ${statusText(row.status)}`);
  out.push(`${fieldText(jobs.fields.kind as FieldDef, row.kind)}  ${row.url}`);
  out.push(
    `每 ${row.intervalS} 秒检查，超时 ${row.timeoutMs} 毫秒，重试 ${row.maxRetries} 次（间隔 ${row.retryIntervalS} 秒）`,
  );
  out.push(
    `可用率：24 小时 ${percent(uptime.h24)}  7 天 ${percent(uptime.d7)}  30 天 ${percent(uptime.d30)}`,
  );
  out.push(`最近检查：${formatDateTime(row.lastCheckAt as string | null)}`);
  out.push('');
  const table = renderTable(
    [
      { header: '时间', shrink: false },
      { header: '结果', shrink: false },
      { header: '状态码', align: 'right', shrink: false },
      { header: '响应（毫秒）', align: 'right', shrink: false },
      { header: '信息' },
    ],
    recent.map((r) => [
      formatDateTime(r.at),
      `${statusText(r.status)}${r.important ? ' ●' : ''}`,
      r.httpStatus === null ? '-' : String(r.httpStatus),
      r.latencyMs === null ? '-' : String(r.latencyMs),
      r.message ?? '',
    ]),
    width,
  );
  out.push(recent.length > 0 ? table.text.trimEnd() : '还没有检查记录');
  if (recent.some((r) => r.important)) out.push('', '● 状态在这一次检查时翻转（发出了告警）');
  return `${out.join('\n')}\n`;
}

export function registerJobs(program: Command, runtime: Runtime): void {
  const field = (name: string) => (SYSTEM_FIELD_DEFS[name] ?? jobs.fields[name]) as FieldDef;
  const listFlags: FieldFlag[] = [
    {
      option: new Option('--status <状态>', `任务状态（${valueHint(field('status'))}）`),
      field: 'status',
      def: field('status'),
      op: 'eq',
      key: 'status',
    },
    {
      option: new Option('--kind <类型>', `任务类型（${valueHint(field('kind'))}）`),
      field: 'kind',
      def: field('kind'),
      op: 'eq',
      key: 'kind',
    },
  ];

  const group = program
    .command('jobs')
    .description('监控任务的常用任务：列表、详情、立即检查、暂停/恢复、导出检查记录')
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang jobs list --status down\n  $ wanxiang jobs run 3 || echo 故障\n  $ wanxiang jobs history 3 --since 24h --format csv > job-3.csv',
    );

  const list = group
    .command('list')
    .description('列出监控任务：按状态、类型筛选')
    .option('--q <关键字>', '关键字搜索（任务名称、监控地址）')
    .option('--limit <条数>', '条数，1-500（默认 20）')
    .addOption(formatOption(['table', 'json', 'csv', 'ndjson']))
    .addOption(jsonOption())
    .addHelpText('after', '\n示例：\n  $ wanxiang jobs list\n  $ wanxiang jobs list --status down --json');
  for (const flag of listFlags) list.addOption(flag.option);
  list.action(async (options: Record<string, unknown> & { format: RowFormat; json?: boolean }, cmd) => {
    const params = listRequest(jobs, listFlags, options);
    const result = await clientOf(connect(runtime, cmd), jobs).list(params);
    if (!result.success) throw result.error;
    const { io } = runtime;
    const rendered = renderList(jobs, chosenFormat(options), result, {
      withTotal: false,
      width: outputWidth(io.stdout, io.env),
    });
    io.stdout.write(rendered.stdout);
    for (const note of rendered.notes) io.stderr.write(`${note}\n`);
  });

  group
    .command('show')
    .description('显示一个任务：配置、24 小时/7 天/30 天可用率和最近的检查')
    .argument('<id>', '任务 ID（`wanxiang jobs list` 查看）')
    .option('--runs <条数>', '显示最近几次检查（默认 10，最多 100）', '10')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang jobs show 3\n  $ wanxiang jobs show 3 --json | jq .uptime.d30',
    )
    .action(
      async (idText: string, options: { runs: string; format: 'table' | 'json'; json?: boolean }, cmd) => {
        const id = parseId(idText);
        const limit = Number(options.runs);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100)
          throw new CliError('--runs 须为 1 到 100 的整数', { exitCode: ExitCode.usage });
        const server = connect(runtime, cmd);
        const row = await clientOf(server, jobs).get(id);
        const [uptime, recent] = await Promise.all([
          server.http.request<{ data: Uptime }>(`/api/admin/monitorJobs/${id}/uptime`, {}),
          latestRuns(server, id, limit),
        ]);
        const { io } = runtime;
        if (chosenFormat(options) === 'json') {
          io.stdout.write(`${JSON.stringify({ job: row, uptime: uptime.data, runs: recent }, null, 2)}\n`);
          return;
        }
        io.stdout.write(renderJob(row, uptime.data, recent, outputWidth(io.stdout, io.env)));
      },
    );

  group
    .command('run')
    .description('立即检查一个任务：正常时退出码 0，故障或待确认时 1')
    .argument('<id>', '任务 ID')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang jobs run 3\n  $ wanxiang jobs run 3 --json | jq .run.latencyMs',
    )
    .action(async (idText: string, options: { format: 'table' | 'json'; json?: boolean }, cmd) => {
      const id = parseId(idText);
      const server = connect(runtime, cmd);
      const job = await clientOf(server, jobs).action(id, 'runNow', {});
      const [run] = await latestRuns(server, id, 1);
      const { io } = runtime;
      if (chosenFormat(options) === 'json') io.stdout.write(`${JSON.stringify({ job, run }, null, 2)}\n`);
      else io.stdout.write(`#${id} ${job.name}  ${run ? runLine(run) : statusText(job.status)}\n`);
      if (run?.status !== 'up')
        throw new CliError(`监控任务 #${id} ${statusText(run?.status ?? job.status)}`, {
          reported: chosenFormat(options) !== 'json',
        });
    });

  for (const [name, action, label] of [
    ['pause', 'pause', '暂停'],
    ['resume', 'resume', '恢复'],
  ] as const) {
    group
      .command(name)
      .description(
        `${label}一个任务${name === 'pause' ? '（暂停后不再检查，不再告警）' : '（恢复后重新开始检查）'}`,
      )
      .argument('<id>', '任务 ID')
      .addOption(formatOption(['table', 'json']))
      .addOption(jsonOption())
      .addHelpText('after', `\n示例：\n  $ wanxiang jobs ${name} 3`)
      .action(async (idText: string, options: { format: 'table' | 'json'; json?: boolean }, cmd) => {
        const client = clientOf(connect(runtime, cmd), jobs);
        await showRow(
          runtime,
          client,
          await client.action(parseId(idText), action, {}),
          chosenFormat(options),
        );
      });
  }

  exportOptions(
    group
      .command('history')
      .description('导出一个任务的检查记录（最新的在前），流式写出（同 `wanxiang export monitorRuns`）')
      .argument('<id>', '任务 ID')
      .option(
        '--since <时长或日期>',
        '从多久以前起：24h、7d、30m，或日期如 2024-05-01 "2024-05-01 08:00"（北京时间）',
        '24h',
      )
      .option('--until <日期>', '止于（含；只写日期时含当天）')
      .option('--status <结果>', `只要这种结果（${valueHint(runs.fields.status as FieldDef)}）`),
  )
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang jobs history 3 --since 24h --format csv > job-3.csv\n  $ wanxiang jobs history 3 --since 7d --status down --format ndjson',
    )
    .action(
      async (
        idText: string,
        options: ExportOptions & { since: string; until?: string; status?: string },
        cmd: Command,
      ) => {
        const id = parseId(idText);
        const flags: FieldFlag[] = [
          {
            option: new Option('--job-id'),
            field: 'jobId',
            def: runs.fields.jobId as FieldDef,
            op: 'eq',
            key: 'jobId',
          },
          {
            option: new Option('--since'),
            field: 'at',
            def: runs.fields.at as FieldDef,
            op: 'gte',
            key: 'at_gte',
          },
          {
            option: new Option('--until'),
            field: 'at',
            def: runs.fields.at as FieldDef,
            op: 'lte',
            key: 'at_lte',
          },
          {
            option: new Option('--status'),
            field: 'status',
            def: runs.fields.status as FieldDef,
            op: 'eq',
            key: 'status',
          },
        ];
        const { filters } = listRequest(runs, flags, {
          jobId: String(id),
          since: sinceValue(options.since, Date.now()),
          ...(options.until ? { until: options.until } : {}),
          ...(options.status ? { status: options.status } : {}),
        });
        await runExport(runtime, cmd, runs, { filters, sort: '-at' }, options);
      },
    );
}
