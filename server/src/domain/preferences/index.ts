/** Per-user settings of the admin UI (saved filters, columns, tabs). */
import type { DomainArea } from '../area.js';
import { preferencesRoutes } from './routes.js';

export const preferencesArea: DomainArea = { name: 'preferences', routes: preferencesRoutes };
