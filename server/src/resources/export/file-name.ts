import type { ResourceDef } from '@wanxiang/core';
import type { ExportFormat } from './producer.js';

export function exportFileName(def: ResourceDef, format: ExportFormat): string {
  return `${def.title}.${format === 'csv' ? 'csv' : 'ndjson'}`;
}

/** `attachment; filename="export.csv"; filename*=UTF-8''订单.csv` (RFC 6266 / 5987). */
export function contentDisposition(fileName: string, format: ExportFormat): string {
  return `attachment; filename="export.${format}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
