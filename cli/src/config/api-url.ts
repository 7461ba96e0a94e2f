/**
 * Which server a command talks to: `--api-url`, else `WANXIANG_API_URL` (commander reads both),
 * else the server of the last sign-in, else a server on this machine.
 */
import { CliError, ExitCode } from '../errors';

export const API_URL_ENV = 'WANXIANG_API_URL';
export const DEFAULT_API_URL = 'http://localhost:8080';

export function resolveApiUrl(given: string | undefined, saved: string | undefined): string {
  if (given !== undefined && given.trim() !== '') return normaliseApiUrl(given);
  return saved ?? DEFAULT_API_URL;
}

/** One spelling per server, so the saved token is found again: no trailing slash, no query. */
export function normaliseApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(raw);
  }
  // `localhost:8080` parses as the scheme "localhost:"; only http(s) reaches the API.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(raw);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function invalid(raw: string): CliError {
  return new CliError(`无效的 API 地址「${raw}」`, {
    exitCode: ExitCode.usage,
    hint: `请写完整的地址，例如 --api-url ${DEFAULT_API_URL}`,
  });
}
