/** How wide the output may be: the terminal's width, else `COLUMNS`, else unlimited (a pipe). */
import type { Writable } from 'node:stream';

export function outputWidth(
  stream: Writable & { isTTY?: boolean; columns?: number },
  env: Record<string, string | undefined>,
): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
}
