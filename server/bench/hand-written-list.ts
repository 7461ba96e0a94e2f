/**
 * The ceiling BENCHMARKS.md measures the list against: "a hand-written single-purpose Fastify +
 * better-sqlite3 service" answering the same list over the same orders table — one prepared
 * SELECT of 20 rows as stored, the total from a COUNT kept for 10 s per status (as the engine's
 * count cache), the answer serialised by Fastify from a response schema (fast-json-stringify, the
 * fastest way Fastify has). No auth, no permissions, no registry, no wire conversion, no related
 * names, no logger: everything the engine adds is missing, so nothing generic can beat it.
 *
 *   DB_FILE=data/wanxiang.db PORT=8401 node --import tsx server/bench/hand-written-list.ts
 *
 * Answers `GET /orders?status=paid[&page=N]`; prints `listening <url>` when ready.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const file = process.env.DB_FILE;
if (!file) throw new Error('DB_FILE names the SQLite file');
const db = new Database(file, { readonly: true, fileMustExist: true });
const LIMIT = 20;
const COUNT_TTL_MS = 10_000;
const page = db.prepare(
  'select * from orders where status = ? order by created_at desc, id desc limit ? offset ?',
);
const countOf = db.prepare('select count(*) from orders where status = ?').pluck();
const counts = new Map<string, { total: number; at: number }>();

// The response schema from the table's own columns: integers, or text (JSON text stays text).
const columns: Record<string, { type: string[] }> = {};
for (const column of page.columns())
  columns[column.name] = { type: [/int/i.test(column.type ?? '') ? 'integer' : 'string', 'null'] };

const app = Fastify({ logger: false });
app.get(
  '/orders',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: {
            success: { type: 'boolean' },
            data: {
              type: 'object',
              properties: {
                results: { type: 'array', items: { type: 'object', properties: columns } },
                page: {
                  type: 'object',
                  properties: {
                    total: { type: 'integer' },
                    page: { type: 'integer' },
                    limit: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  async (request) => {
    const query = request.query as { status?: string; page?: string };
    const status = query.status ?? 'paid';
    const pageNo = Math.max(1, Number(query.page ?? 1) || 1);
    const results = page.all(status, LIMIT, (pageNo - 1) * LIMIT);
    let count = counts.get(status);
    if (!count || Date.now() - count.at > COUNT_TTL_MS) {
      count = { total: countOf.get(status) as number, at: Date.now() };
      counts.set(status, count);
    }
    return { success: true, data: { results, page: { total: count.total, page: pageNo, limit: LIMIT } } };
  },
);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`listening ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    app.close().then(() => {
      db.close();
      process.exit(0);
    });
  });
