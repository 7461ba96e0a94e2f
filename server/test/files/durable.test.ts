/**
 * What a caller of the durable write sees: the file whole under its name, in folders made for it,
 * nothing else beside it — after concurrent writers of the same bytes too, and after a write that
 * failed. (That the bytes and the names are synced before it resolves is what a power cut would
 * show; durable.ts says which syncs it makes.)
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { putBlob } from '../../src/files/blob-store.js';
import { writeFileDurably } from '../../src/files/durable.js';

describe('writing a file durably', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wanxiang-durable-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Every file under `folder`, relative to it. */
  const everything = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(folder, path.join(e.parentPath, e.name)))
      .sort();

  it('puts the bytes under the name, in the folders it makes, and nothing beside them', async () => {
    const file = path.join(dir, 'a', 'b', 'c.bin');
    const bytes = Buffer.from('万象 durable bytes');
    await writeFileDurably(file, bytes);
    expect(readFileSync(file)).toEqual(bytes);
    expect(everything(dir)).toEqual([path.join('a', 'b', 'c.bin')]);
  });

  it('leaves one whole file when writers of the same bytes race, and no draft', async () => {
    const file = path.join(dir, 'same.bin');
    const bytes = Buffer.alloc(64 * 1024, 7);
    await Promise.all(Array.from({ length: 8 }, () => writeFileDurably(file, bytes)));
    expect(readFileSync(file)).toEqual(bytes);
    expect(everything(dir)).toEqual(['same.bin']);
  });

  it('fails without leaving its draft when the name cannot be taken', async () => {
    // A folder already holds the name: the rename into place fails.
    const file = path.join(dir, 'taken');
    mkdirSync(file);
    await expect(writeFileDurably(file, Buffer.from('x'))).rejects.toThrow();
    expect(everything(dir)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('stores an upload once under its content address, with no draft beside it', async () => {
    const bytes = Buffer.from('RIFF....WAVEfmt ');
    const first = await putBlob(dir, bytes, 'wav');
    const again = await putBlob(dir, bytes, 'wav');
    expect(again).toEqual(first);
    expect(everything(path.join(dir, 'uploads'))).toEqual([path.join(first.id.slice(0, 2), first.id)]);
    expect(readFileSync(path.join(dir, 'uploads', first.id.slice(0, 2), first.id))).toEqual(bytes);
  });
});
