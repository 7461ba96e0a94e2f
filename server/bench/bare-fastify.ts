/**
 * The reference of the list's throughput bar (BENCHMARKS.md: "≥ 6 % of a bare Fastify route
 * measured in the same run"): Fastify with one route answering a small JSON, nothing else —
 * no logger, no plugins, no database. Run as its own process, like the real server:
 *
 *   PORT=8400 node --import tsx server/bench/bare-fastify.ts
 *
 * Prints `listening <url>` when ready.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`listening ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    app.close().then(() => process.exit(0));
  });
