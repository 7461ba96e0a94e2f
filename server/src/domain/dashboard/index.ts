/**
 * The /admin dashboard (README.md of the income area, "The dashboard"): the figures under the
 * spec's 'admin' heading. Reads only.
 */
import type { DomainArea } from '../area.js';
import { dashboardRoutes } from './routes.js';

export const dashboardArea: DomainArea = { name: 'dashboard', routes: dashboardRoutes };
