/** The document library (README.md): the public search and reading routes, and the index kept in step with admin writes. */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';
import { docsRoutes } from './routes.js';

export const docsArea: DomainArea = { name: 'docs', register, routes: docsRoutes };
