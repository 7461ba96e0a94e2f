/** The certificate routes of issue 16's contract (/api/me/ssl…), typed for /ssl. */
import type { CertificateChainEntry, CertificateVerdict, HttpClient, StarttlsProtocol } from '@wanxiang/core';
import { rowsOf } from '../../monitor/api';

/** The verdicts and the chain as core names them (the server's check reports them). */
export type Verdict = CertificateVerdict;
export type Starttls = 'none' | StarttlsProtocol;
export type ChainCertificate = CertificateChainEntry;

export interface CheckResult {
  verdict: Verdict;
  reason: string;
  daysLeft: number | null;
  host: string;
  port: number;
  checkedAt: string;
  chain: ChainCertificate[];
}

export interface CheckInput {
  host: string;
  port?: number;
  starttls?: Starttls;
  servername?: string;
  ca?: string;
}

export interface SslWatch {
  id: number;
  host: string;
  port: number;
  starttls?: Starttls;
  servername?: string | null;
  notifyDays?: number[];
  status: string;
  verdict?: Verdict | null;
  daysLeft: number | null;
  notAfter: string | null;
  issuer?: string | null;
  lastCheckAt: string | null;
  lastError?: string | null;
}

export interface WatchInput extends CheckInput {
  notifyDays?: number[];
}

/** The verdicts as /ssl shows them (antd Alert types; the reason itself comes from the server). */
export const VERDICTS: Record<
  Verdict,
  { label: string; type: 'success' | 'warning' | 'error'; color: string }
> = {
  ok: { label: '证书有效', type: 'success', color: 'green' },
  expiring: { label: '即将到期', type: 'warning', color: 'orange' },
  expired: { label: '已过期', type: 'error', color: 'red' },
  mismatch: { label: '域名不匹配', type: 'error', color: 'red' },
  untrusted: { label: '不受信任', type: 'error', color: 'volcano' },
  unreachable: { label: '无法连接', type: 'error', color: 'default' },
};

/** STARTTLS choices and the port each usually listens on (core's STARTTLS_PROTOCOLS). */
export const STARTTLS_OPTIONS: { value: Starttls; label: string; port: number }[] = [
  { value: 'none', label: '无（直接 TLS）', port: 443 },
  { value: 'smtp', label: 'SMTP', port: 25 },
  { value: 'imap', label: 'IMAP', port: 143 },
  { value: 'pop3', label: 'POP3', port: 110 },
];

type Envelope<T> = { data: T };

export function sslApi(http: HttpClient) {
  const send = async <T>(path: string, method: 'GET' | 'POST' | 'DELETE' = 'GET', body?: unknown) =>
    (await http.request<Envelope<T>>(path, { method, body, kind: 'silent' })).data;
  return {
    check: (input: CheckInput) => send<CheckResult>('/api/me/ssl/check', 'POST', input),
    watches: async () => rowsOf<SslWatch>(await send<unknown>('/api/me/ssl')),
    watch: (input: WatchInput) => send<SslWatch>('/api/me/ssl', 'POST', input),
    remove: async (id: number) => {
      await send<unknown>(`/api/me/ssl/${id}`, 'DELETE');
    },
    checkNow: (id: number) => send<unknown>(`/api/me/ssl/${id}/check`, 'POST'),
  };
}

/** The answer of a watch's 立即检测: the row itself, or `{sslJob}` around it. */
export function watchOf(answer: unknown): SslWatch | null {
  if (!answer || typeof answer !== 'object') return null;
  const inner = (answer as { sslJob?: unknown }).sslJob ?? answer;
  return inner && typeof inner === 'object' && typeof (inner as { id?: unknown }).id === 'number'
    ? (inner as SslWatch)
    : null;
}

/** "7, 14,21" → [7, 14, 21]; null when any part is not a whole number of days from 1 to 365. */
export function parseNotifyDays(text: string): number[] | null {
  const parts = text.split(/[\s,，、]+/).filter(Boolean);
  if (parts.length === 0) return null;
  const days = parts.map(Number);
  if (days.some((d) => !Number.isInteger(d) || d < 1 || d > 365)) return null;
  return [...new Set(days)].sort((a, b) => a - b);
}
