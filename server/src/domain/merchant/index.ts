/** Merchant onboarding (README.md): the public application and status lookup, and the review's rejection with reasons. */
import type { DomainArea } from '../area.js';
import { merchantPublicRoutes } from './public-routes.js';
import { register } from './resource.js';

export const merchantArea: DomainArea = { name: 'merchant', register, routes: merchantPublicRoutes };
