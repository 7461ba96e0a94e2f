/**
 * A folder's entries on disk: a file renamed into it keeps its new name through a power cut only
 * once the folder is synced (as PostgreSQL's `durable_rename` does; the server's own uploads:
 * server/src/files/durable.ts). Windows opens no folder for this, and some file systems refuse to
 * sync one (EINVAL, EBADF, EISDIR): those keep their entries as they do.
 */
import { open } from 'node:fs/promises';

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
