/**
 * PostgreSQL's side of backup and restore, through PostgreSQL's own tools (README.md).
 *
 * Copy: `pg_dump --format=custom` of the app's schema (the first of its search_path), run inside
 * a snapshot exported by a REPEATABLE READ transaction of ours — so the rows counted for the
 * manifest are exactly the rows dumped, while writes go on.
 *
 * Restore: `pg_restore` turns the archive into SQL, which `psql --single-transaction` runs after
 * dropping and re-creating the schema: one transaction, so a failure leaves the data as it was,
 * and tables the dump does not know (a newer migration's) go too, so the migrations that run
 * afterwards find the schema as the backup's version left it. (`pg_restore --clean --if-exists
 * --single-transaction` would keep such tables, and the next migration would fail on them.)
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { analyzeCurrentSchema } from '../../db/statistics.js';
import { ApiError } from '../../http/envelope.js';

/** pg_dump / pg_restore of a large database may take a while; past this they are stopped. */
export const PG_TOOL_TIMEOUT_MS = 60 * 60_000;

const toolMissing = (tool: string, detail: string) =>
  new ApiError({
    status: 503,
    errorCode: 503,
    message: `无法${tool === 'pg_dump' ? '备份' : '恢复'}：${detail}。请在服务器上安装与 PostgreSQL 服务同版本或更新的客户端工具（如 postgresql-client）`,
  });

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool to its end within `timeoutMs`; ENOENT becomes the Chinese 503. */
function run(
  tool: string,
  args: readonly string[],
  options: { timeoutMs: number } = { timeoutMs: PG_TOOL_TIMEOUT_MS },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      if (stdout.length < 1_000_000) stdout += c;
    });
    child.stderr?.setEncoding('utf8').on('data', (c: string) => {
      if (stderr.length < 100_000) stderr += c;
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? toolMissing(tool, `服务器上找不到 ${tool}`) : error),
    );
    child.on('close', (code, signal) =>
      resolve({
        code: signal ? null : code,
        stdout,
        stderr: signal ? `${stderr}\n(stopped: ${signal})` : stderr,
      }),
    );
  });
}

async function withClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The major version of a tool (`pg_dump (PostgreSQL) 15.20` → 15). */
async function toolMajor(tool: string): Promise<number> {
  const { code, stdout } = await run(tool, ['--version'], { timeoutMs: 10_000 });
  const m = /(\d+)(?:\.\d+)?/.exec(stdout);
  if (code !== 0 || !m) throw toolMissing(tool, `${tool} 无法运行`);
  return Number(m[1]);
}

/** Refuses (503) when `tool` is missing or older than the server (it cannot read a newer server). */
export async function checkTool(tool: 'pg_dump' | 'pg_restore' | 'psql', client: pg.Client): Promise<void> {
  const major = await toolMajor(tool);
  const { rows } = await client.query<{ v: string }>("select current_setting('server_version_num') as v");
  const serverMajor = Math.floor(Number(rows[0]?.v ?? 0) / 10_000);
  if (major < serverMajor)
    throw toolMissing(tool, `${tool} 的版本（${major}）比 PostgreSQL 服务（${serverMajor}）旧`);
}

/**
 * The URL as libpq reads it: query values percent-encoded, never `+` for a space (node's
 * URLSearchParams writes `options=-c+search_path%3Dx`, which libpq passes on as "+search_path").
 */
export function libpqUrl(url: string): string {
  const parsed = new URL(url);
  const query = [...parsed.searchParams]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  parsed.search = query ? `?${query}` : '';
  return parsed.toString();
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface PgFacts {
  schema: string;
  migration: string | null;
  tables: Record<string, number>;
}

/** Dumps the app's schema to `target` and answers what the dump holds. */
export async function dumpPostgres(url: string, target: string): Promise<PgFacts> {
  return withClient(url, async (client) => {
    await checkTool('pg_dump', client);
    await client.query('begin isolation level repeatable read, read only');
    try {
      const schema = (await client.query<{ s: string }>('select current_schema() as s')).rows[0]?.s;
      if (!schema) throw new Error('the connection has no current schema');
      const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]?.id;
      const names = (
        await client.query<{ name: string }>(
          `select table_name as name from information_schema.tables
           where table_schema = $1 and table_type = 'BASE TABLE' order by table_name`,
          [schema],
        )
      ).rows.map((r) => r.name);
      const tables: Record<string, number> = {};
      for (const name of names) {
        const { rows } = await client.query<{ n: string }>(
          `select count(*) as n from ${quote(schema)}.${quote(name)}`,
        );
        tables[name] = Number(rows[0]?.n ?? 0);
      }
      const migration = names.includes('kysely_migration')
        ? ((
            await client.query<{ m: string | null }>(
              `select max(name) as m from ${quote(schema)}.kysely_migration`,
            )
          ).rows[0]?.m ?? null)
        : null;
      const dumped = await run('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--schema=${quote(schema)}`,
        `--snapshot=${snapshot}`,
        `--file=${target}`,
        `--dbname=${libpqUrl(url)}`,
      ]);
      if (dumped.code !== 0) throw new Error(`pg_dump failed (${dumped.code}): ${dumped.stderr.trim()}`);
      return { schema, migration, tables };
    } finally {
      await client.query('rollback').catch(() => undefined);
    }
  });
}

/** pg_restore can read the archive: its table of contents (a corrupted dump fails here). */
export async function checkDump(file: string): Promise<string[]> {
  const listed = await run('pg_restore', ['--list', file], { timeoutMs: 60_000 });
  if (listed.code !== 0) throw new Error(listed.stderr.trim() || 'pg_restore --list failed');
  return listed.stdout.split('\n');
}

/**
 * Replaces the app's schema by the dump's content, in one transaction. The dump's own schema
 * entry is left out (we drop and create the schema ourselves); a dump taken from another schema
 * name is restored under its name and renamed, when that name is free.
 */
export async function restorePostgres(
  url: string,
  dump: string,
  dumpedSchema: string,
  work: { tocFile: string; scriptFile: string },
) {
  const { tocFile, scriptFile } = work;
  return withClient(url, async (client) => {
    await checkTool('pg_restore', client);
    await checkTool('psql', client);
    const schema = (await client.query<{ s: string }>('select current_schema() as s')).rows[0]?.s;
    if (!schema) throw new Error('the connection has no current schema');
    if (dumpedSchema !== schema) {
      const taken = await client.query('select 1 from pg_namespace where nspname = $1', [dumpedSchema]);
      if (taken.rowCount)
        throw new ApiError({
          status: 422,
          errorCode: 422,
          message: `备份来自数据库模式 ${dumpedSchema}，本服务使用 ${schema}，而 ${dumpedSchema} 已存在：未作任何修改`,
        });
    }
    const toc = await checkDump(dump);
    // Every entry but the schema itself (`; 123; 2615 2200 SCHEMA - name owner`).
    await writeFile(tocFile, toc.filter((line) => !/^\d+;\s*\d+\s+\d+\s+SCHEMA\s/.test(line)).join('\n'));
    const prelude =
      dumpedSchema === schema
        ? `drop schema if exists ${quote(schema)} cascade; create schema ${quote(schema)};`
        : `drop schema if exists ${quote(schema)} cascade; create schema ${quote(dumpedSchema)};`;
    const epilogue =
      dumpedSchema === schema
        ? 'select 1;'
        : `alter schema ${quote(dumpedSchema)} rename to ${quote(schema)};`;
    // The script is written out first and checked: piped straight into psql, a pg_restore that
    // failed halfway would end psql's input early and psql would commit half a restore.
    const written = await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      `--use-list=${tocFile}`,
      `--file=${scriptFile}`,
      dump,
    ]);
    if (written.code !== 0) throw new Error(`pg_restore failed (${written.code}): ${written.stderr.trim()}`);
    const applied = await run('psql', [
      '--no-psqlrc',
      '--quiet',
      '--set=ON_ERROR_STOP=1',
      '--single-transaction',
      `--command=${prelude}`,
      `--file=${scriptFile}`,
      `--command=${epilogue}`,
      `--dbname=${libpqUrl(url)}`,
    ]);
    if (applied.code !== 0) throw new Error(`psql failed (${applied.code}): ${applied.stderr.trim()}`);
    // A dump carries no planner statistics: taken now, as pg_restore's documentation asks.
    await analyzeCurrentSchema((text) => client.query(text));
  });
}
