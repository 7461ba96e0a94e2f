/**
 * A fingerprint of everything a request could change, to prove that a refused request changed
 * nothing: taken before a request, taken again when the answer is a refusal, compared.
 *
 * What it covers: the content of every table of the database — every row, every column, in one
 * query (one round trip on PostgreSQL: an md5 per table computed by the server; SQLite: the
 * rows' JSON text per table, in-process) — and the files under the data folder (names and
 * sizes; the database files themselves excepted).
 *
 * Cost: reading every row of the demo content takes a few hundred milliseconds, too slow for
 * every request. So a print is kept with a mark of the database's writes, read in O(1), and
 * only recomputed when the mark moved: SQLite's total_changes() on the app's one connection
 * (every row inserted, updated or deleted since it opened), PostgreSQL's next transaction id
 * (pg_snapshot_xmax: any write assigns one; other sessions on the same server move it too,
 * which only costs a recomputation). An unmoved mark means no write happened, so most refused
 * requests cost two tiny queries and a listing of the data folder.
 *
 * What it leaves out, each because a refused request is meant to write it:
 * - IGNORED_TABLES: counters of refusals themselves (failed sign-ins, rate-limit windows) and
 *   the request statistics of the monitor, which count every request;
 * - IGNORED_COLUMNS: a session's last-seen time, touched by any signed-in request.
 * In-memory state (caches, websocket subscribers) is not covered.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/** Tables a refused request writes by design, with why. */
export const IGNORED_TABLES: Record<string, string> = {};

/** `table.column` a refused request writes by design, with why. */
export const IGNORED_COLUMNS: Record<string, string> = {};

export type Fingerprint = Map<string, string>;

export interface Fingerprinter {
  take(): Promise<Fingerprint>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function fingerprinter(app: FastifyInstance): Promise<Fingerprinter> {
  const dialect = app.config.database.dialect;
  const tables = (await app.db.introspection.getTables()).filter(
    (t) => !t.isView && !(t.name in IGNORED_TABLES) && !t.name.startsWith('kysely_'),
  );
  const parts = tables.map((table) => {
    const columns = table.columns.filter((c) => !(`${table.name}.${c.name}` in IGNORED_COLUMNS));
    if (dialect === 'postgres') {
      const row = `json_build_array(${columns.map((c) => quote(c.name)).join(', ')})::text`;
      return `(select md5(coalesce(string_agg(j, chr(30) order by j), '')) from (select ${row} as j from ${quote(table.name)}) s) as ${quote(table.name)}`;
    }
    // JSON cannot hold a BLOB: those columns go in as hex.
    const values = columns.map((c) => (/blob/i.test(c.dataType) ? `hex(${quote(c.name)})` : quote(c.name)));
    return `(select group_concat(j, char(30)) from (select json_array(${values.join(', ')}) as j from ${quote(table.name)} order by j)) as ${quote(table.name)}`;
  });
  const query = sql.raw(`select ${parts.join(',\n')}`);
  const markQuery = sql.raw(
    dialect === 'postgres'
      ? 'select pg_snapshot_xmax(pg_current_snapshot())::text as mark'
      : 'select total_changes() as mark',
  );
  const dataDir = app.config.dataDir;
  let kept: { mark: string; rows: [string, string][] } | null = null;

  return {
    async take() {
      const mark = String(((await markQuery.execute(app.db)).rows[0] as { mark: unknown }).mark);
      if (kept?.mark !== mark) {
        const { rows } = await query.execute(app.db);
        kept = {
          mark,
          rows: Object.entries(rows[0] as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        };
      }
      const print: Fingerprint = new Map(kept.rows);
      print.set('files', filesUnder(dataDir));
      return print;
    },
  };
}

function filesUnder(root: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/^wanxiang\.db/.test(entry.name))
        out.push(`${path.relative(root, full)}:${statSync(full).size}`);
    }
  };
  walk(root);
  return out.sort().join('\n');
}

/** The names of what differs between two fingerprints (tables, `files`). */
export function differences(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}
