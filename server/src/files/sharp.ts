/**
 * sharp, loaded on first use. libvips costs ~30 MB of resident memory as soon as it is loaded,
 * and a running server touches an image only when someone uploads one (or on the first start's
 * demo seeding): importing it eagerly raised the idle server from ~95 MB to ~150 MB.
 */
import type SharpModule from 'sharp';

export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | null = null;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((m) => m.default);
  return loading;
}
