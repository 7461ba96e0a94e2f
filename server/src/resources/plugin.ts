/**
 * The resource area: the engine as `app.resources`, its generic routes for every definition,
 * and two start-up checks — every handler action of the registry has a handler (else the server
 * does not start), and the migrated tables match the registry (else a warning names what a new
 * migration must add; see README.md).
 */
import { RESOURCES, type ResourceDef, registryProblems } from '@wanxiang/core';
import fp from 'fastify-plugin';
import { SqliteReader } from '../db/sqlite-reader.js';
import { COUNT_TTL_MS } from './counts.js';
import { ResourceEngine } from './engine.js';
import { assertActionHandlers, type EngineExtensions } from './extensions.js';
import { registerResourceRoutes } from './routes.js';
import { RowCache } from './row-cache.js';
import { diffSchema, introspectSchema } from './schema-ops.js';
import { registerWireFunctions } from './sqlite-json.js';
import { modelOf } from './storage.js';
import { tableSpecOf } from './table-spec.js';

declare module 'fastify' {
  interface FastifyInstance {
    resources: ResourceEngine;
  }
}

export interface ResourcesPluginOptions {
  /** Default: core's RESOURCES. */
  resources?: readonly ResourceDef[];
  /** What the domain areas add to the engine (domain/areas.ts `engineExtensions()`). */
  extensions: EngineExtensions;
}

/** Page cache of the totals' connection: a COUNT reads each page once per cached total (10 s). */
const TOTALS_CACHE_KIB = 2048;

export const resourcesPlugin = fp<ResourcesPluginOptions>(
  async (app, options) => {
    const resources = options.resources ?? RESOURCES;
    const extensions = options.extensions;
    assertActionHandlers(resources, extensions);

    const problems = registryProblems(resources);
    if (problems.length > 0) app.log.warn({ problems }, 'the resource registry is inconsistent');
    const specs = resources.filter((def) => modelOf(def).hasTable).map(tableSpecOf);
    const drift = diffSchema(specs, await introspectSchema(app.db, app.dbDialect));
    if (drift.ops.length > 0 || drift.problems.length > 0) {
      app.log.warn(
        {
          missing: drift.ops.map((o) =>
            o.op === 'createTable'
              ? `table ${o.table}`
              : o.op === 'addColumn'
                ? `${o.table}.${o.column.name}`
                : `index ${o.index.name}`,
          ),
          problems: drift.problems,
        },
        'the database lacks parts of the resource registry: add a migration (server/src/resources/README.md)',
      );
    }

    // SQLite: reads on the database's read connection with prepared statements (sqlite-reader.ts),
    // where the lists' wire JSON hands unusual values back to JavaScript (sqlite-json.ts).
    const database = app.config.database;
    const reader = app.dbReader;
    reader?.use(registerWireFunctions);
    // Totals count on a connection of their own, unmapped: see EngineOptions.totalsReader.
    const totalsReader =
      database.dialect === 'sqlite' ? new SqliteReader(database.file, { cacheKiB: TOTALS_CACHE_KIB }) : null;
    app.addHook('onClose', async () => totalsReader?.close());
    const engine = new ResourceEngine({
      db: app.db,
      dialect: app.dbDialect,
      now: app.config.now,
      resources,
      extensions,
      reader,
      totalsReader,
      publish: (topic, data) => app.hub?.publish(topic, data),
      log: app.log,
      rowCache:
        app.config.listRowCacheBytes > 0
          ? new RowCache({ maxBytes: app.config.listRowCacheBytes, ttlMs: COUNT_TTL_MS })
          : null,
    });
    app.decorate('resources', engine);
    // Encapsulated: only the decorator is shared.
    await app.register(async (scope) => registerResourceRoutes(scope, engine));
  },
  { name: 'wanxiang-resources', dependencies: ['wanxiang-database', 'wanxiang-auth'] },
);
