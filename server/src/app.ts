/**
 * `buildApp(config)`: the whole server as one Fastify instance, migrated, seeded and ready.
 * `start.ts` listens with it; tests drive it through `app.inject()`.
 *
 * Areas are plugins, one folder each; shared pieces (database, auth decorators, errors,
 * security headers) are registered once at the root with fastify-plugin.
 */
import { mkdirSync } from 'node:fs';
import { type DemoContentReport, seedDemoContent } from '@wanxiang/demo';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import { databasePlugin } from './db/plugin.js';
import { analyzeSchema, autovacuumIsOff } from './db/statistics.js';
import { demoStore } from './demo-store.js';
import { AREAS, areaTasks, engineExtensions } from './domain/areas.js';
import { authArea } from './domain/auth/index.js';
import { maintenancePlugin } from './domain/backup/maintenance.js';
import { requestStatsPlugin } from './domain/monitor/index.js';
import { filesRoutes } from './files/routes.js';
import { admissionPlugin, DEFAULT_REQUEST_CONCURRENCY } from './http/admission.js';
import { errorsPlugin, frameworkErrors } from './http/errors.js';
import { jsonBodyPlugin } from './http/json-depth.js';
import { nulCharactersPlugin } from './http/nul-characters.js';
import { openApiPlugin } from './http/openapi.js';
import { genReqId, requestIdPlugin } from './http/request-id.js';
import { securityPlugin } from './http/security.js';
import type { AnyDb } from './resources/extensions.js';
import { resourcesPlugin } from './resources/plugin.js';
import { type ScheduledTask, schedulerPlugin } from './scheduler/index.js';
import { uiPlugin } from './static/ui.js';
import { whileBulkWriting } from './v8-heap.js';
import { wsPlugin } from './ws/plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    /** What the first start's demo seeding wrote (null when off or the database had content). */
    demoContent: DemoContentReport | null;
  }
}

export interface BuildOptions {
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logStream?: { write(line: string): void };
  /** Runs after every area is registered and before the app is sealed (tests add routes here). */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Scheduled tasks beside the areas' (tests: a task that records its runs). */
  tasks?: readonly ScheduledTask[];
}

/** 1 MiB: enough for any JSON form; uploads will have their own limit on their own routes. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(config: ServerConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  // The data folder holds the SQLite file and, later, uploads: make sure it exists whatever the database.
  mkdirSync(config.dataDir, { recursive: true });
  const handle = openDatabase(config.database);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
    },
    genReqId,
    // A hop count is given to Fastify as a function: its types only list addresses and booleans.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // No limit on how long an area takes to register: the database area migrates before anything
    // else starts, and a migration over a large table (an index on a million orders) takes longer
    // than Fastify's default 10 s — cutting it off would leave the server unable to ever start.
    // An unreachable database still fails at once (the driver's own connection error).
    pluginTimeout: 0,
    // All schema errors at once, so a form can mark every wrong field in one round trip.
    ajv: { customOptions: { allErrors: true } },
    // Router failures (a path that is not valid percent-encoding, a parameter too long): the envelope.
    frameworkErrors,
  });

  // Response schemas document the answers (OpenAPI) but do not shape them: plain
  // JSON.stringify, so a field missing from a schema is never silently dropped.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorate('config', config);
  app.decorate('demoContent', null);

  try {
    await app.register(requestIdPlugin);
    await app.register(errorsPlugin);
    // Every route's JSON bodies: Fastify's parser behind a bound on nesting depth.
    await app.register(jsonBodyPlugin);
    // U+0000 in any parameter or body text: a 422 (PostgreSQL text cannot hold it).
    await app.register(nulCharactersPlugin);
    await app.register(securityPlugin);
    await app.register(requestStatsPlugin);
    await app.register(openApiPlugin, { version: config.version });
    await app.register(databasePlugin, { handle });
    // `app.admit`: the routes whose work is the database take turns under load (http/admission.ts).
    await app.register(admissionPlugin, { limit: config.requestConcurrency ?? DEFAULT_REQUEST_CONCURRENCY });
    // Writes answer 503 维护中 while a restore replaces the data (domain/backup).
    await app.register(maintenancePlugin);

    await app.register(authArea);
    // `/ws` and `app.hub` (publish to websocket subscribers), for the areas below.
    await app.register(wsPlugin);
    await app.register(filesRoutes);
    // Every domain area's routes, from one list (domain/areas.ts).
    for (const area of AREAS) if (area.routes) await app.register(area.routes);
    // The generic routes of every registry resource (after the areas, whose fixed paths win),
    // with what each area hands the engine (its handlers, hooks and storage).
    await app.register(resourcesPlugin, { extensions: engineExtensions() });
    // Every area's timers, run under database leases once the server listens (scheduler/README.md).
    await app.register(schedulerPlugin, { tasks: [...areaTasks(app), ...(options.tasks ?? [])] });

    await app.register(uiPlugin, { uiDist: config.uiDist });
    await options.beforeReady?.(app);
    await app.ready();
    // After migrations and the initial users, before the first request: an empty database
    // gets realistic content for every screen (idempotent: skipped once content exists).
    const report = config.demoContent
      ? await whileBulkWriting(() =>
          seedDemoContent(demoStore(app.resources, app.blobs), {
            now: config.now(),
            log: (m) => app.log.info(m),
          }),
        )
      : null;
    app.demoContent = report?.seeded ? report : null;
    // Written in bulk just now: the planner's statistics, before the first request (db/statistics.ts).
    const db = app.db as unknown as AnyDb;
    if (report?.seeded) await analyzeSchema(db, app.dbDialect);
    if (await autovacuumIsOff(db, app.dbDialect))
      app.log.warn(
        'PostgreSQL autovacuum is off: planner statistics go stale and dead rows are never reclaimed — turn it on, or run VACUUM ANALYZE regularly',
      );
  } catch (error) {
    await app.close().catch(() => undefined);
    await handle.close().catch(() => undefined);
    throw error;
  }
  return app;
}
