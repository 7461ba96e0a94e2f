/**
 * 测试 of a third-party service: one GET of its endpoint through the outbound policy
 * (net/http-outbound.ts: checked and pinned addresses, redirects re-checked, one timeout, a small
 * body cap) and what came of it, in Chinese. Nothing of the service's credentials is sent: the
 * question is whether the server can reach the endpoint, not whether the provider accepts the
 * key — and a secret sent to a mistyped endpoint would be a leak.
 */
import {
  HttpRedirectError,
  HttpTimeoutError,
  httpOutbound,
  type OutboundResolver,
} from '../../net/http-outbound.js';
import {
  type OutboundPolicy,
  OutboundRefusedError,
  OutboundTimeoutError,
  OutboundUnresolvedError,
} from '../../net/outbound.js';

export const PROBE_TIMEOUT_MS = 5_000;
/** Only the status matters; a big page is not read. */
const PROBE_MAX_BODY_BYTES = 16 * 1024;

export interface ProbeResult {
  /** An HTTP answer came back (any status: a 401 still means the endpoint is there). */
  reachable: boolean;
  httpStatus: number | null;
  latencyMs: number;
  /** Why it was not reached, in Chinese; null when reached. */
  error: string | null;
}

function reason(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundRefusedError || error instanceof OutboundUnresolvedError) return error.message;
  if (error instanceof HttpTimeoutError || error instanceof OutboundTimeoutError)
    return `连接超时（${timeoutMs} 毫秒内没有应答）`;
  if (error instanceof HttpRedirectError) return `重定向过多或无效：${error.message}`;
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return '连接被拒绝（端口没有服务在监听）';
    case 'ECONNRESET':
      return '连接被对方重置';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return '网络不可达';
    case 'CERT_HAS_EXPIRED':
      return 'TLS 证书已过期';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return 'TLS 证书是自签名的，不受信任';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'TLS 证书与域名不符';
    default:
      return code ? `连接失败（${code}）` : '连接失败';
  }
}

export async function probeEndpoint(
  endpoint: string,
  policy: OutboundPolicy,
  options: { now?: () => number; timeoutMs?: number; resolve?: OutboundResolver } = {},
): Promise<ProbeResult> {
  const now = options.now ?? (() => performance.now());
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const started = now();
  try {
    const res = await httpOutbound({
      url: endpoint,
      method: 'GET',
      policy,
      timeoutMs,
      followRedirects: true,
      maxBodyBytes: PROBE_MAX_BODY_BYTES,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    return { reachable: true, httpStatus: res.status, latencyMs: Math.round(now() - started), error: null };
  } catch (error) {
    return {
      reachable: false,
      httpStatus: null,
      latencyMs: Math.round(now() - started),
      error: reason(error, timeoutMs),
    };
  }
}

/** The answer's message: what a person reads in the notice. */
export function probeMessage(result: ProbeResult): string {
  return result.reachable
    ? `连接成功：HTTP ${result.httpStatus}，耗时 ${result.latencyMs} 毫秒`
    : `无法连接：${result.error}`;
}
