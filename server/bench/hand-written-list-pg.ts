/**
 * The PostgreSQL twin of hand-written-list.ts, the ceiling the app's list is measured beside on
 * PostgreSQL: a hand-written single-purpose Fastify + node-postgres service answering the same
 * list over the same orders table — one prepared (named) SELECT of 20 rows as stored per status,
 * the status written into its text (a bound status gets PostgreSQL's one plan for every status after
 * five runs, the wrong one for a rare status: src/db/plan-literal.ts), the total
 * from a COUNT kept for 10 s per status (as the engine's count cache), the answer serialised by
 * Fastify from a response schema (fast-json-stringify). A pool of its own (`PG_POOL_SIZE`,
 * default 20, as the server's `DATABASE_POOL_SIZE`). No auth, no permissions, no registry, no
 * wire conversion, no related names, no logger: everything the engine adds is missing.
 *
 *   DATABASE_URL=postgres://…?options=-c%20search_path%3Dbench_orders PORT=8402 \
 *     node --import tsx server/bench/hand-written-list-pg.ts
 *
 * Answers `GET /orders?status=paid[&page=N]`; prints `listening <url>` when ready.
 */
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL names the PostgreSQL database (its search_path the orders schema)');
const INT8_OID = 20;
const INTEGER_OIDS = new Set([20, 21, 23]);
// BIGINT as a number, as the server's pool does (epoch milliseconds, far below 2^53).
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
    return pg.types.getTypeParser(oid, format as any);
  },
};
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_SIZE ?? 20), types });
const LIMIT = 20;
const COUNT_TTL_MS = 10_000;
// The limit written in and the offset bound only past the first page, as the engine does (the
// status is what matters to the plan; a bound limit gets the same one).
const pageSql = (status: string, offset: boolean) =>
  `select * from orders where status = '${status}' order by created_at desc, id desc limit ${LIMIT}${offset ? ' offset $1' : ''}`;
/** Statuses are lowercase words; anything else is refused before it reaches the SQL text. */
const STATUS = /^[a-z_]{1,32}$/;
const counts = new Map<string, { total: number; at: number }>();

// The response schema from the table's own columns: integers, booleans, or text.
const { fields } = await pool.query(`${pageSql('paid', false).replace(/limit .*/, '')} limit 0`);
const columns: Record<string, { type: string[] }> = {};
for (const field of fields)
  columns[field.name] = {
    type: [
      INTEGER_OIDS.has(field.dataTypeID) ? 'integer' : field.dataTypeID === 16 ? 'boolean' : 'string',
      'null',
    ],
  };

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
    if (!STATUS.test(status)) throw Object.assign(new Error('status'), { statusCode: 400 });
    const pageNo = Math.max(1, Number(query.page ?? 1) || 1);
    const offset = (pageNo - 1) * LIMIT;
    const { rows: results } = await pool.query({
      name: `orders-page-${status}${offset > 0 ? '-offset' : ''}`,
      text: pageSql(status, offset > 0),
      values: offset > 0 ? [offset] : [],
    });
    let count = counts.get(status);
    if (!count || Date.now() - count.at > COUNT_TTL_MS) {
      const { rows } = await pool.query({
        name: 'orders-count',
        text: 'select count(*)::int as n from orders where status = $1',
        values: [status],
      });
      count = { total: rows[0].n as number, at: Date.now() };
      counts.set(status, count);
    }
    return { success: true, data: { results, page: { total: count.total, page: pageNo, limit: LIMIT } } };
  },
);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`listening ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    app.close().then(async () => {
      await pool.end();
      process.exit(0);
    });
  });
