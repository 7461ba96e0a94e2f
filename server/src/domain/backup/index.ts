/** Backup and restore of the whole product: the database copy and the uploads (README.md). */
import type { DomainArea } from '../area.js';
import { backupRoutes } from './routes.js';

export const backupArea: DomainArea = {
  name: 'backup',
  routes: backupRoutes,
};
