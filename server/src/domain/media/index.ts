/** Music and movies (README.md): the public lists and audio uploads. */
import type { DomainArea } from '../area.js';
import { mediaRoutes } from './routes.js';

export const mediaArea: DomainArea = { name: 'media', routes: mediaRoutes };
