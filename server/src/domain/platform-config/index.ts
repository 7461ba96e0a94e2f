/** The platform configuration: the public config route, and the platformConfig resource over the key → value store with its versions. */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';
import { platformConfigRoutes } from './routes.js';

export const platformConfigArea: DomainArea = {
  name: 'platformConfig',
  register,
  routes: platformConfigRoutes,
};
