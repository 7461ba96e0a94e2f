/**
 * The blog area (README.md): the public blog and gallery routes, image uploads for the admin
 * forms, and the photos resource's thumbnail hook.
 */
import type { DomainArea } from '../area.js';
import { blogPublicRoutes } from './public-routes.js';
import { register } from './resource.js';
import { uploadRoutes } from './uploads.js';

export const blogArea: DomainArea = {
  name: 'blog',
  register,
  routes: async (app) => {
    await app.register(blogPublicRoutes);
    await app.register(uploadRoutes);
  },
};
