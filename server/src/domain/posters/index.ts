/** Posters (README.md): the background with a QR code of the link, rendered into a stored image. */
import fp from 'fastify-plugin';
import type { AnyDb } from '../../resources/extensions.js';
import type { DomainArea } from '../area.js';
import { register, setPosterBlobs } from './resource.js';

const postersPlugin = fp(
  async (app) => {
    setPosterBlobs(app.db as unknown as AnyDb, app.blobs);
  },
  { name: 'wanxiang-posters', dependencies: ['wanxiang-database', 'wanxiang-files'] },
);

export const postersArea: DomainArea = { name: 'posters', register, routes: postersPlugin };
