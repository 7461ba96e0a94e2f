/**
 * CSV export of the current filter. The export URL needs the bearer token, which a plain link
 * cannot carry, so the file is fetched with it and handed to the browser as a download. A failed
 * answer goes through core's error catalogue like any other call (401 → 登录超时, 500 → 系统错误).
 */
import {
  ApiError,
  classify,
  formatDateTime,
  type HttpClient,
  type ListParams,
  type ResourceClient,
  runEffects,
} from '@wanxiang/core';

/** `门店_20240501-1430.csv`, or the name the server gives. */
function fileName(title: string, disposition: string | null): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to our own name
    }
  }
  // `2024-05-01 14:30` → `20240501-1430`
  const stamp = formatDateTime(new Date()).replace(/-/g, '').replace(' ', '-').replace(':', '');
  return `${title}_${stamp}.csv`;
}

/** Downloads the CSV; resolves with the file name, rejects like an HTTP client call. */
export async function exportCsv(
  http: HttpClient,
  client: ResourceClient,
  params: ListParams,
  baseURL = '',
): Promise<string> {
  const { page: _page, limit: _limit, cursor: _cursor, ...filters } = params;
  return downloadCsv(http, client.exportPath('csv', filters), client.def.title, baseURL);
}

/**
 * Fetches a CSV route with the bearer token and hands the file to the browser (the server's name
 * for it, or `{title}_{time}.csv`); resolves with the file name, rejects like an HTTP client call.
 */
export async function downloadCsv(
  http: HttpClient,
  path: string,
  title: string,
  baseURL = '',
): Promise<string> {
  const headers: Record<string, string> = {};
  const token = http.ports.tokenStore.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${baseURL}${path}`, { headers });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const outcome = classify(response.status, body, 'query');
    runEffects(outcome.effects, http.ports);
    throw outcome.result === 'reject'
      ? outcome.error
      : new ApiError(response.status, response.status, `导出失败（HTTP ${response.status}）`);
  }
  const blob = await response.blob();
  const name = fileName(title, response.headers.get('content-disposition'));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the blob goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
