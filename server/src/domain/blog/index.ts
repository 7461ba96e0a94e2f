/**
 * The blog area (README.md): the public blog and gallery routes, image uploads for the admin
 * forms, and the photos resource's thumbnail hook.
 */
import type { FastifyPluginAsync } from 'fastify';
import { blogPublicRoutes } from './public-routes.js';
import { uploadRoutes } from './uploads.js';
import './resource.js';

export const blogArea: FastifyPluginAsync = async (app) => {
  await app.register(blogPublicRoutes);
  await app.register(uploadRoutes);
};
