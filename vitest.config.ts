import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    // vitest's default outside watch mode leaves a core free (cores − 1): on the 2-core CI machine
    // that ran every file one after another — the end-to-end files only after all the others
    // (measured: never more than one file at a time, 28 minutes). Most files spend their time
    // waiting on a server process, a browser or the CLI, so two lanes at least, shared by every
    // project's files, the end-to-end ones included (ui/vitest.e2e.config.ts).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
