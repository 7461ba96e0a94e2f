/**
 * Files the server acknowledges and must still hold after a power cut, not only after its own
 * crash: an upload whose row the database has committed, the secret key that seals stored
 * secrets. A write reaches the disk only at an fsync; a new name in a folder only at an fsync of
 * the folder. Renamed into place without both, a file survives `kill -9` (the page cache is the
 * kernel's) but a power cut can leave the committed row naming a file that is empty or missing.
 * PostgreSQL syncs its own files the same way (`durable_rename`, `fsync_fname`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The folder's entries on disk. Windows opens no folder for a sync, and some file systems refuse to
 * sync one (EINVAL, as PostgreSQL's `fsync_fname` allows for; EBADF, EISDIR): those keep their
 * entries as they do.
 */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EBADF' && code !== 'EISDIR') throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Writes `data` to `file` whole and on disk: under a name of its own first, synced, then renamed
 * into place (a reader never sees half a file; two writers of the same bytes each rename a whole
 * copy), and the folders whose entries changed synced — the file's, and those of the folders
 * made for it.
 */
export async function writeFileDurably(file: string, data: Uint8Array): Promise<void> {
  const folder = path.dirname(file);
  const firstMade = await mkdir(folder, { recursive: true });
  const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(draft, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(draft, file);
  } catch (error) {
    await rm(draft, { force: true });
    throw error;
  }
  await syncFolder(folder);
  // A folder made for the file is an entry of its parent: synced up to the one that existed.
  if (firstMade !== undefined) {
    const existed = path.dirname(firstMade);
    for (let parent = path.dirname(folder); ; parent = path.dirname(parent)) {
      await syncFolder(parent);
      if (parent === existed || parent === path.dirname(parent)) break;
    }
  }
}
