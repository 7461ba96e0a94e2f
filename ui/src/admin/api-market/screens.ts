/**
 * The three API-market screens as one lazy chunk: custom-screens.ts imports it from one place, so
 * the entry carries one preload list for them instead of three (each cost ~0.25 KB gzip on the
 * first admin list's path).
 */
export { default as ApiKeyScreen } from './ApiKeyScreen';
export { default as ApiOrderScreen } from './ApiOrderScreen';
export { default as ApiScreen } from './ApiScreen';
