/**
 * index.html as the not-found handler answers it for every screen's URL (ui.ts), kept in memory.
 * Sent from the file, each answer took a stat and an open, reads and a close on libuv's thread
 * pool, each a turn of the event loop: under 64 connections of mixed load (bench/load.ts) the
 * public pages' HTML waited ~5× as long as any API answer. The copies (plain, the build's .br and
 * .gz, and the plain one without the public home's preloads) are read again when index.html's
 * size or modification time changes, looked at at most once a second, so a rebuilt UI is still
 * served without a restart.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface IndexCopy {
  body: Buffer;
  /** `br` or `gzip` for the build's compressed copies. */
  encoding: 'br' | 'gzip' | null;
}

interface Loaded {
  key: string;
  etag: string;
  lastModified: string;
  plain: IndexCopy;
  br: IndexCopy | null;
  gzip: IndexCopy | null;
  withoutPreloads: Buffer;
}

const RECHECK_MS = 1000;

function readOptional(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** Which of the build's copies a request's Accept-Encoding takes: br first, then gzip (q=0 refuses). */
function accepted(header: string | undefined): { br: boolean; gzip: boolean } {
  const result = { br: false, gzip: false };
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    if (name === 'br') result.br = true;
    else if (name === 'gzip') result.gzip = true;
  }
  return result;
}

export class IndexHtml {
  private loaded: Loaded | null = null;
  private checkedAt = 0;

  constructor(
    private readonly root: string,
    private readonly preloads: RegExp,
  ) {}

  private current(): Loaded {
    const now = Date.now();
    if (this.loaded && now - this.checkedAt < RECHECK_MS) return this.loaded;
    this.checkedAt = now;
    const file = path.join(this.root, 'index.html');
    const stat = statSync(file);
    const key = `${stat.size}-${stat.mtimeMs}`;
    if (this.loaded?.key === key) return this.loaded;
    const body = readFileSync(file);
    const br = readOptional(`${file}.br`);
    const gzip = readOptional(`${file}.gz`);
    this.loaded = {
      key,
      // As @fastify/send makes them for the file itself.
      etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      lastModified: stat.mtime.toUTCString(),
      plain: { body, encoding: null },
      br: br ? { body: br, encoding: 'br' } : null,
      gzip: gzip ? { body: gzip, encoding: 'gzip' } : null,
      withoutPreloads: Buffer.from(body.toString('utf8').replace(this.preloads, '')),
    };
    return this.loaded;
  }

  /** The public pages' copy: with the preloads, compressed as the request accepts. */
  publicCopy(acceptEncoding: string | undefined): IndexCopy & { etag: string; lastModified: string } {
    const loaded = this.current();
    const accepts = accepted(acceptEncoding);
    const copy = (accepts.br && loaded.br) || (accepts.gzip && loaded.gzip) || loaded.plain;
    return { ...copy, etag: loaded.etag, lastModified: loaded.lastModified };
  }

  /** Every other screen's copy: plain, without the public home's preloads. */
  screenCopy(): Buffer {
    return this.current().withoutPreloads;
  }
}
