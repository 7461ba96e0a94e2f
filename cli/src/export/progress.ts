/**
 * The export's progress on stderr: in a terminal one line redrawn in place (a bar when the total
 * is known), elsewhere (`--progress` into a log) a plain line every few seconds. stdout carries
 * only the data.
 */
import type { Writable } from 'node:stream';

export interface Progress {
  update(rows: number, bytes: number): void;
  /** Clears the live line. */
  stop(): void;
}

export interface ProgressOptions {
  /** Redraw in place (a terminal) or append lines (a log). */
  inPlace: boolean;
  total: number | null;
  now?: () => number;
}

const BAR = 20;

export function createProgress(
  stderr: Writable,
  { inPlace, total, now = Date.now }: ProgressOptions,
): Progress {
  const started = now();
  let last = 0;
  let drawn = false;
  const every = inPlace ? 100 : 2000;
  return {
    update(rows, bytes) {
      const at = now();
      if (at - last < every) return;
      last = at;
      const line = progressLine(rows, bytes, (at - started) / 1000, total);
      if (inPlace) {
        stderr.write(`\r${line}\x1b[K`);
        drawn = true;
      } else {
        stderr.write(`${line}\n`);
      }
    },
    stop() {
      if (drawn) stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}

export function progressLine(rows: number, bytes: number, seconds: number, total: number | null): string {
  const rate = seconds > 0 ? rows / seconds : 0;
  const parts = [
    `${count(rows)}${total ? `/${count(total)}` : ''} 行`,
    formatBytes(bytes),
    `${count(Math.round(rate))} 行/秒`,
  ];
  if (total && total > 0) {
    const share = Math.min(1, rows / total);
    const filled = Math.round(share * BAR);
    const left = rate > 0 ? Math.max(0, (total - rows) / rate) : null;
    if (left !== null) parts.push(`剩余约 ${formatSeconds(left)}`);
    return `导出中 [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}] ${Math.floor(share * 100)}% ${parts.join(' · ')}`;
  }
  return `导出中 ${parts.join(' · ')}`;
}

export const count = (n: number) => n.toLocaleString('en-US');

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} 毫秒`;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} 秒`;
  return `${Math.floor(seconds / 60)} 分 ${Math.round(seconds % 60)} 秒`;
}
