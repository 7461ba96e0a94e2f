/**
 * The back office loads resource definitions module by module (definitions.ts): a screen that
 * imported core's whole registry would put all of it back into its chunk, unnoticed until the
 * bundle benchmark. UI code looks definitions up through definitions.ts instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// jsdom gives import.meta.url no file scheme here; vitest's dirname is the file's folder.
const src = join(import.meta.dirname, '..');
const REGISTRY_WIDE =
  /\b(getResource|findResource|listingsOfRoute|resourcesOfRoute|RESOURCES|DEFINITION_MODULES)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('definitions', () => {
  it('are never taken from core’s whole registry by UI code', () => {
    const offenders = sources(src).filter((file) => {
      const imports = readFileSync(file, 'utf8').match(/import[^;]*from '@wanxiang\/core';/gs) ?? [];
      return imports.some((statement) => REGISTRY_WIDE.test(statement));
    });
    expect(offenders.map((file) => file.slice(src.length))).toEqual([]);
  });
});
