/**
 * A fingerprint of everything a request could change, to prove that a refused request changed
 * nothing: taken before a request, taken again when the answer is a refusal, compared.
 *
 * What it covers: every table of the database, in one query — small tables row by row, every
 * column (PostgreSQL: an md5 per table computed by the server; SQLite: the rows' JSON text),
 * large ones by aggregates (FULL_ROWS below) — and the folders under the data folder (their
 * modification times: a file added, removed or renamed shows; a file rewritten in place does
 * not, and uploads never are).
 *
 * Cost: even so, a print takes tens of milliseconds on the demo content. So a print is kept with a mark of the database's writes, read in O(1), and
 * only recomputed when the mark moved: SQLite's total_changes() on the app's one connection
 * (every row inserted, updated or deleted since it opened), PostgreSQL's next transaction id
 * (pg_snapshot_xmax: any write assigns one; other sessions on the same server move it too,
 * which only costs a recomputation). An unmoved mark means no write happened, so most refused
 * requests cost one tiny query and a stat of each folder.
 *
 * What it leaves out: IGNORED_TABLES and IGNORED_COLUMNS (what a refusal is meant to write,
 * e.g. a failed sign-in's attempt row; empty today), in-memory state (caches, rate windows
 * kept in memory, websocket subscribers), and file contents rewritten in place.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/**
 * Tables a refused request writes by design, with why. Empty: in the runs so far no refusal
 * wrote anything (a failed sign-in would record an attempt, but the fuzz's random captcha ids
 * are refused before that). Add an entry with its reason rather than weakening the property.
 */
export const IGNORED_TABLES: Record<string, string> = {};

/** `table.column` a refused request writes by design, with why (empty, as above). */
export const IGNORED_COLUMNS: Record<string, string> = {};

export type Fingerprint = Map<string, string>;

/**
 * Tables up to this many rows (when the fuzz starts) are compared row by row; larger ones
 * (order history, search terms, monitor runs of the demo content: 1 000 to 33 000 rows) by
 * row count, sum and max of ids, and max and sum of updated_at — an insert, a delete or an
 * update through the engine (which stamps updated_at) shows; an update of another column of a
 * large table that leaves updated_at alone would not.
 */
const FULL_ROWS = { sqlite: 1000, postgres: 100 };

export interface Fingerprinter {
  /** `files`: also the data folder (the harness skips it for GET, which never writes files). */
  take(files: boolean, moment: 'before' | 'after'): Promise<Fingerprint>;
  /** Says a request was allowed to change things (a 2xx, a sign-in of the harness). */
  allowChanges(): void;
  /** How often and how long: printed at the end of a run. */
  stats: { takes: number; recomputed: number; queryMs: number; filesMs: number };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function fingerprinter(app: FastifyInstance): Promise<Fingerprinter> {
  const dialect = app.config.database.dialect;
  // PostgreSQL: each test app has its own schema; introspection lists every schema's tables.
  const schema =
    dialect === 'postgres'
      ? String(((await sql.raw('select current_schema() as s').execute(app.db)).rows[0] as { s: unknown }).s)
      : undefined;
  const tables = (await app.db.introspection.getTables()).filter(
    (t) =>
      !t.isView &&
      !(t.name in IGNORED_TABLES) &&
      !t.name.startsWith('kysely_') &&
      (schema === undefined || t.schema === schema),
  );
  // Rows per table now: a small table is fingerprinted row by row, a large one by aggregates.
  const sizes = new Map<string, number>();
  for (const table of tables) {
    const { rows } = await sql.raw(`select count(*) as n from ${quote(table.name)}`).execute(app.db);
    sizes.set(table.name, Number((rows[0] as { n: unknown }).n));
  }
  const parts = tables.map((table) => {
    const name = quote(table.name);
    const columns = table.columns.filter((c) => !(`${table.name}.${c.name}` in IGNORED_COLUMNS));
    const has = (column: string) => columns.some((c) => c.name === column);
    if ((sizes.get(table.name) ?? 0) > FULL_ROWS[dialect]) {
      const aggregates = [
        'count(*)',
        ...(has('id') ? ['sum(id)', 'max(id)'] : []),
        ...(has('updated_at') ? ['max(updated_at)', 'sum(updated_at)'] : []),
      ];
      const text = aggregates.map((a) =>
        dialect === 'postgres' ? `coalesce(${a}::text, '')` : `coalesce(${a}, '')`,
      );
      return `(select ${text.join(dialect === 'postgres' ? " || ',' || " : " || ',' || ")} from ${name}) as ${name}`;
    }
    if (dialect === 'postgres') {
      const row = `json_build_array(${columns.map((c) => quote(c.name)).join(', ')})::text`;
      return `(select md5(coalesce(string_agg(j, chr(30) order by j), '')) from (select ${row} as j from ${name}) s) as ${name}`;
    }
    // JSON cannot hold a BLOB: those columns go in as hex.
    const values = columns.map((c) => (/blob/i.test(c.dataType) ? `hex(${quote(c.name)})` : quote(c.name)));
    return `(select group_concat(j, char(30)) from (select json_array(${values.join(', ')}) as j from ${name} order by j)) as ${name}`;
  });
  const query = sql.raw(`select ${parts.join(',\n')}`);
  const markQuery = sql.raw(
    dialect === 'postgres'
      ? 'select pg_snapshot_xmax(pg_current_snapshot())::text as mark'
      : 'select total_changes() as mark',
  );
  const folders = foldersOf(app.config.dataDir);
  // Only this app writes its database (its own SQLite file or PostgreSQL schema; timers are
  // off), so between requests the content is what the last print saw unless something was
  // allowed to change it (allowChanges drops the kept print). PostgreSQL's mark also moves with
  // other sessions' writes to other schemas: a print taken before a request reuses the kept one.
  let kept: { mark: string; rows: [string, string][] } | null = null;
  const stats = { takes: 0, recomputed: 0, queryMs: 0, filesMs: 0 };

  return {
    stats,
    allowChanges() {
      // The next print is read afresh, whatever the mark says.
      kept = null;
    },
    async take(files, moment) {
      stats.takes++;
      const t0 = performance.now();
      const mark = String(((await markQuery.execute(app.db)).rows[0] as { mark: unknown }).mark);
      if (kept === null || (kept.mark !== mark && moment === 'after')) {
        stats.recomputed++;
        const { rows } = await query.execute(app.db);
        kept = {
          mark,
          rows: Object.entries(rows[0] as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        };
      }
      const print: Fingerprint = new Map(kept.rows);
      const t1 = performance.now();
      if (files) print.set('files', folders());
      stats.queryMs += t1 - t0;
      stats.filesMs += performance.now() - t1;
      return print;
    },
  };
}

/**
 * The folders under `root` with their modification times: a file created, removed or renamed
 * (uploads are written to a temporary name and renamed) changes its folder's time. Stat-ing
 * the folders costs far less than listing every file (hundreds in the demo content's uploads).
 */
function foldersOf(root: string): () => string {
  // Backup and restore's working folders (domain/backup: `DATA_DIR/backup-work/run-*`) come and go
  // around a request — a refused restore unpacks the upload there before it checks it, a backup's
  // folder goes when its answer has been sent — and hold no data, so they are no change.
  const isWorkArea = (base: string, folder: string) =>
    path.relative(base, folder).split(path.sep)[0] === 'backup-work';
  let folders: string[] = [];
  const scan = () => {
    folders = [root];
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      const folder = path.join(entry.parentPath, entry.name);
      if (entry.isDirectory() && !isWorkArea(root, folder)) folders.push(folder);
    }
  };
  scan();
  let last = '';
  return () => {
    const times = () =>
      folders
        .map(
          (f) => `${path.relative(root, f)}:${statSync(f, { bigint: true, throwIfNoEntry: false })?.mtimeNs}`,
        )
        .join('\n');
    let now = times();
    // A folder changed: a new subfolder may have appeared inside it.
    if (now !== last) {
      process.env.FUZZ_DEBUG && console.log('[fuzz] rescan', folders.length);
      scan();
      now = times();
      last = now;
    }
    return now;
  };
}

/** The names of what differs between two fingerprints (tables, `files`). */
export function differences(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}
