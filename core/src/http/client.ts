/**
 * The one HTTP client: ofetch with the base URL, the 10 000 ms timeout and the bearer token
 * from the TokenStore; answers go through the error catalogue.
 */
import { type FetchResponse, ofetch } from 'ofetch';
import { HTTP_TIMEOUT_MS } from '../config';
import { classify, type RequestKind, runEffects } from './error-catalogue';
import type { HttpPorts } from './ports';

export interface HttpClientOptions extends HttpPorts {
  /** '' (same origin) in the browser; the server URL in the CLI. */
  baseURL?: string;
  timeoutMs?: number;
  /** A fetch implementation (tests, or a custom agent). Defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Defaults: GET → query, anything else → mutation. */
  kind?: RequestKind;
}

export interface HttpClient {
  /** Resolves with the whole parsed body of a successful answer; rejects per spec §8. */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  readonly ports: HttpPorts;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const ports: HttpPorts = options;
  const $fetch = ofetch.create(
    {
      baseURL: options.baseURL ?? '',
      timeout: options.timeoutMs ?? HTTP_TIMEOUT_MS,
      // A retried POST could sign in twice or double a payment; the caller decides.
      retry: 0,
      ignoreResponseError: true,
    },
    // ofetch reads `fetch` from its global options (the second argument), not from the defaults.
    options.fetch ? { fetch: options.fetch } : {},
  );

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const method = opts.method ?? 'GET';
    const kind = opts.kind ?? (method === 'GET' ? 'query' : 'mutation');
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    const token = ports.tokenStore.get();
    if (token) headers.Authorization = `Bearer ${token}`;

    // Network failures and timeouts (no response) reject here and are passed on unchanged.
    const response: FetchResponse<unknown> = await $fetch.raw(path, {
      method,
      headers,
      query: opts.query,
      body: opts.body as Record<string, unknown> | undefined,
    });
    const outcome = classify(response.status, response._data, kind);
    runEffects(outcome.effects, ports);
    if (outcome.result === 'reject') throw outcome.error;
    return outcome.value as T;
  }

  return { request, ports };
}
