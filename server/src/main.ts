/**
 * `node server/dist/main.js`: settles how V8 sizes its heap first (v8-heap.ts), then
 * starts the server (start.ts). Two files, because a bundle's package imports (Fastify, Kysely,
 * …) are loaded before any line of its own code: the setting must come before the module that
 * imports them is even loaded.
 */
import './v8-heap.js';

// Built: dist/start.js beside this file; from source (tsx): src/start.ts.
const start = new URL(import.meta.url.endsWith('.ts') ? './start.ts' : './start.js', import.meta.url);
await import(start.href);
