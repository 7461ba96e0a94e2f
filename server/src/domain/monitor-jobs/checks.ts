/**
 * The check kinds http, keyword and tcp: one check of a job against its target, under the
 * job's outbound policy, answering `{ ok, httpStatus, latencyMs, message }` with a Chinese
 * message a user can act on. Nothing here writes to the database (record.ts does).
 * The browser kind is in browser.ts.
 */
import { JOB_TARGET_MESSAGES, statusAccepted, tcpAddress } from '@wanxiang/core';
import {
  decodeBody,
  HttpRedirectError,
  HttpTimeoutError,
  httpOutbound,
  type OutboundResolver,
} from '../../net/http-outbound.js';
import {
  connectOutbound,
  type OutboundPolicy,
  OutboundRefusedError,
  OutboundTimeoutError,
  OutboundUnresolvedError,
  resolveOutbound,
} from '../../net/outbound.js';

/** What a check needs of a job (the monitorJobs row's fields). */
export interface JobSpec {
  kind: 'http' | 'keyword' | 'tcp' | 'browser';
  url: string;
  method?: string | null;
  headers?: Record<string, string> | null;
  body?: string | null;
  timeoutMs: number;
  acceptedStatus?: string | null;
  keyword?: string | null;
  invertKeyword?: boolean | null;
  followRedirects?: boolean | null;
  ignoreTls?: boolean | null;
}

export interface CheckResult {
  ok: boolean;
  httpStatus: number | null;
  /** Time to the answer; null when nothing answered. */
  latencyMs: number | null;
  message: string;
  /** A browser job's screenshot (`/api/files/…`). */
  screenshot?: string | null;
}

export interface CheckEnv {
  policy: OutboundPolicy;
  signal?: AbortSignal;
  /** Tests stand in for DNS; the policy stays. */
  resolve?: OutboundResolver;
  now?: () => number;
}

const TLS_MESSAGES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: '证书错误：自签名证书',
  SELF_SIGNED_CERT_IN_CHAIN: '证书错误：证书链中有自签名证书',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '证书错误：证书链不完整或颁发者不受信任',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: '证书错误：证书链不完整或颁发者不受信任',
  CERT_HAS_EXPIRED: '证书错误：证书已过期',
  CERT_NOT_YET_VALID: '证书错误：证书尚未生效',
  ERR_TLS_CERT_ALTNAME_INVALID: '证书错误：证书与域名不匹配',
};

/** A Chinese message for why a request or connection failed. */
export function failureMessage(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundRefusedError || error instanceof OutboundUnresolvedError) return error.message;
  if (error instanceof HttpRedirectError) return error.message;
  if (error instanceof HttpTimeoutError || error instanceof OutboundTimeoutError)
    return `超时（${timeoutMs} 毫秒）`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ECONNREFUSED') return '连接被拒绝';
  if (code === 'ECONNRESET') return '连接被对方重置';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return '主机不可达';
  if (code === 'ABORT_ERR') return '检查被中止（服务停止）';
  const tls = TLS_MESSAGES[code];
  if (tls) return tls;
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO)/.test(code)) return `证书错误（${code}）`;
  return `请求失败（${(error as Error | undefined)?.message ?? String(error)}）`;
}

/** Runs one http, keyword or tcp check. */
export async function runCheck(job: JobSpec, env: CheckEnv): Promise<CheckResult> {
  if (job.kind === 'tcp') return tcpCheck(job, env);
  return httpCheck(job, env);
}

async function httpCheck(job: JobSpec, env: CheckEnv): Promise<CheckResult> {
  const now = env.now ?? Date.now;
  const started = now();
  let res: Awaited<ReturnType<typeof httpOutbound>>;
  try {
    res = await httpOutbound({
      url: job.url,
      method: job.method ?? 'GET',
      headers: job.headers ?? undefined,
      body: job.body ?? undefined,
      policy: env.policy,
      timeoutMs: job.timeoutMs,
      followRedirects: job.followRedirects ?? true,
      ignoreTls: job.ignoreTls ?? false,
      signal: env.signal,
      resolve: env.resolve,
    });
  } catch (error) {
    return { ok: false, httpStatus: null, latencyMs: null, message: failureMessage(error, job.timeoutMs) };
  }
  const latencyMs = Math.max(0, Math.round(now() - started));
  const spec = job.acceptedStatus || '200-299';
  if (!statusAccepted(res.status, spec))
    return { ok: false, httpStatus: res.status, latencyMs, message: `状态码 ${res.status} 不在 ${spec} 内` };
  if (job.kind !== 'keyword' || !job.keyword)
    return { ok: true, httpStatus: res.status, latencyMs, message: `状态码 ${res.status}` };
  return {
    httpStatus: res.status,
    latencyMs,
    ...keywordVerdict(decodeBody(res), job.keyword, !!job.invertKeyword),
  };
}

/** Whether the page says what the job wants, present (or absent with invert). */
export function keywordVerdict(
  text: string,
  keyword: string,
  invert: boolean,
): { ok: boolean; message: string } {
  const found = text.includes(keyword);
  if (invert)
    return found
      ? { ok: false, message: `找到了关键词「${keyword}」（应当不出现）` }
      : { ok: true, message: `未出现关键词「${keyword}」` };
  return found
    ? { ok: true, message: `找到关键词「${keyword}」` }
    : { ok: false, message: `未找到关键词「${keyword}」` };
}

async function tcpCheck(job: JobSpec, env: CheckEnv): Promise<CheckResult> {
  const address = tcpAddress(job.url);
  if (!address) return { ok: false, httpStatus: null, latencyMs: null, message: JOB_TARGET_MESSAGES.tcp };
  const now = env.now ?? Date.now;
  const started = now();
  try {
    const targets = await (env.resolve ?? resolveOutbound)(address.host, env.policy, {
      timeoutMs: job.timeoutMs,
    });
    const socket = await connectOutbound(targets, { port: address.port, timeoutMs: job.timeoutMs });
    const latencyMs = Math.max(0, Math.round(now() - started));
    socket.destroy();
    return { ok: true, httpStatus: null, latencyMs, message: `端口 ${address.port} 可连接` };
  } catch (error) {
    return { ok: false, httpStatus: null, latencyMs: null, message: failureMessage(error, job.timeoutMs) };
  }
}
