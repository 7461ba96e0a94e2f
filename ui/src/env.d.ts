/** The build's version: the short commit hash at build time, 'dev' outside git (vite.config.ts). */
declare const __APP_VERSION__: string;

declare module '*.css';
