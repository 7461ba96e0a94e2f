/**
 * The CDN routes the usage screen calls (server/src/domain/cdn): hourly figures, the imports'
 * history and the import itself (multipart, the same endpoint the CLI streams to).
 */
import type { HttpClient, SuccessEnvelope } from '@wanxiang/core';

export interface HourFigures {
  hour: string;
  requests: number;
  bytes: number;
  hits: number;
  misses: number;
  hitRatio: number | null;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
}

export interface HourlyUsage {
  hours: HourFigures[];
  totals: HourFigures;
}

export interface ImportSample {
  line: number;
  reason: string;
  text: string;
}

export interface ImportRecord {
  id: number;
  domainId: number;
  domain: string | null;
  fileName: string | null;
  lines: number;
  malformed: number;
  requests: number;
  bytes: number;
  hours: number;
  firstHour: string | null;
  lastHour: string | null;
  hasCache: boolean;
  samples: ImportSample[];
  at: string;
}

export interface ImportOutcome {
  alreadyImported: boolean;
  import: ImportRecord;
  message: string;
}

export async function fetchHourly(
  http: HttpClient,
  domainIds: number[],
  from: number,
  to: number,
): Promise<HourlyUsage> {
  const answer = await http.request<SuccessEnvelope<HourlyUsage>>('/api/admin/cdnUsage/hourly', {
    query: {
      domainIds: domainIds.length > 0 ? domainIds.join(',') : undefined,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
    },
  });
  return answer.data;
}

export async function fetchImports(http: HttpClient): Promise<ImportRecord[]> {
  const answer = await http.request<SuccessEnvelope<ImportRecord[]>>('/api/admin/cdnImports', {
    query: { limit: 100 },
  });
  return answer.data;
}

export async function importLog(http: HttpClient, domainId: number, file: File): Promise<ImportOutcome> {
  const body = new FormData();
  body.append('file', file, file.name);
  const answer = await http.request<SuccessEnvelope<Omit<ImportOutcome, 'message'>>>(
    `/api/admin/cdnDomains/${domainId}/import`,
    // The dialog shows the outcome (and a refusal's reason) itself.
    { method: 'POST', body, kind: 'silent' },
  );
  return { ...answer.data, message: answer.message ?? '' };
}
