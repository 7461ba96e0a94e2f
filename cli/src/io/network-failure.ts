/**
 * Turns "fetch failed" into something an operator can act on: which server could not be
 * reached, why, and how to point the CLI elsewhere.
 */
import { messages } from '@wanxiang/core';
import { CliError } from '../errors';

/** ofetch rejects with a FetchError when no answer came back (refused, DNS, timeout, TLS). */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'FetchError';
}

export function networkFailure(error: unknown, apiUrl: string): CliError {
  return new CliError(`无法连接万象服务 ${apiUrl}（${failureReason(error)}）`, {
    hint: '请确认服务已启动、地址无误，或用 --api-url 或环境变量 WANXIANG_API_URL 指定服务地址',
  });
}

/** Why a request got no answer, in a few Chinese words (refused, not found, timed out …). */
export function failureReason(error: unknown): string {
  for (const link of causes(error)) {
    const code = typeof link.code === 'string' ? link.code : '';
    if (code === 'ECONNREFUSED') return '连接被拒绝';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '找不到该主机';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return '连接被中断';
    if (code === 'ETIMEDOUT' || link.name === 'TimeoutError' || link.name === 'AbortError') return '请求超时';
    if (/CERT|SELF_SIGNED|TLS/.test(code)) return 'HTTPS 证书无效';
    // fetch refuses a few well-known ports (e.g. 1, 25) before connecting.
    if (link.message === 'bad port') return '不允许连接该端口';
  }
  return messages.networkError;
}

/** The error and its `cause` chain (fetch nests the system error two levels down). */
function causes(error: unknown): Array<{ code?: unknown; name?: unknown; message?: unknown }> {
  const chain: Array<{ code?: unknown; name?: unknown; message?: unknown }> = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 5) {
    chain.push(current as { code?: unknown; name?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}
