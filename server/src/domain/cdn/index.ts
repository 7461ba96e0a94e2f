/**
 * CDN (README.md): accelerated domains (CNAME on create, the HTTPS certificate's coverage) and
 * the access-log import into hourly usage, with its history and the hourly figures.
 */
import fp from 'fastify-plugin';
import type { AnyDb, EngineExtensions } from '../../resources/extensions.js';
import type { DomainArea } from '../area.js';
import { cdnDomainHooks, setCnameBase } from './domains.js';
import { cdnRoutes } from './routes.js';

const cdnPlugin = fp(
  async (app) => {
    setCnameBase(app.db as unknown as AnyDb, app.config.cdn?.cnameBase);
    // Not wrapped by fp: its content-type parsers and multipart stay inside its routes.
    await app.register(cdnRoutes);
  },
  { name: 'wanxiang-cdn', dependencies: ['wanxiang-database'] },
);

export const cdnArea: DomainArea = {
  name: 'cdn',
  register(engine: EngineExtensions) {
    engine.registerResourceHooks('cdnDomains', cdnDomainHooks);
  },
  routes: cdnPlugin,
};
