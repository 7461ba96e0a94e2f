/**
 * Certificate rules (DOMAIN.md "Monitoring", issue 16): what a TLS handshake's findings mean —
 * the verdict with its Chinese reason and the days left — and which expiry thresholds are due
 * for notice. Pure: the server does the handshake (server/src/domain/certificates/) and hands
 * the facts here; the UI and the CLI show what comes out.
 */
import { DAY_MS, formatDateTime } from '../format/date';

export const CERTIFICATE_VERDICTS = [
  'ok',
  'expiring',
  'expired',
  'mismatch',
  'untrusted',
  'unreachable',
] as const;
export type CertificateVerdict = (typeof CERTIFICATE_VERDICTS)[number];

/** The statuses of a certificate job (sslJobs.status), besides `pending` (never checked). */
export type SslJobStatus = 'ok' | 'expiring' | 'expired' | 'error';

/** The notify thresholds a new certificate job gets (days before expiry). */
export const DEFAULT_NOTIFY_DAYS: readonly number[] = [7, 14, 21];

export const STARTTLS_PROTOCOLS = ['smtp', 'imap', 'pop3'] as const;
export type StarttlsProtocol = (typeof STARTTLS_PROTOCOLS)[number];

/** The usual plain-text port of each STARTTLS protocol (submission on 587 is SMTP as well). */
export const STARTTLS_DEFAULT_PORTS: Record<StarttlsProtocol, number> = { smtp: 25, imap: 143, pop3: 110 };

/** One certificate of a chain as a check reports it (leaf first). */
export interface CertificateChainEntry {
  subject: string;
  issuer: string;
  sans: string[];
  /** ISO strings. */
  notBefore: string;
  notAfter: string;
  /** Upper-case hex pairs joined by colons, as OpenSSL and node print it. */
  fingerprint256: string;
  serialNumber: string;
  /** `RSA`, `EC`, `Ed25519`, … */
  keyType: string | null;
  /** Bits (RSA modulus, EC curve size); null when unknown. */
  keySize: number | null;
  selfSigned: boolean;
}

/** What POST /api/me/ssl/check answers (API.md "Business contracts"). */
export interface CertificateCheckResult {
  verdict: CertificateVerdict;
  reason: string;
  daysLeft: number | null;
  host: string;
  port: number;
  checkedAt: string;
  chain: CertificateChainEntry[];
}

export interface CertificateFacts {
  /** Epoch ms. */
  now: number;
  /** The leaf's validity (epoch ms); null when no certificate was obtained. */
  notBefore: number | null;
  notAfter: number | null;
  /** Why the certificate does not cover the name asked for (tls.checkServerIdentity's error); null when it does. */
  hostnameError?: string | null;
  /** The host the certificate was checked for, named in the mismatch reason. */
  host?: string;
  /** OpenSSL's verification code (socket.authorizationError's code), null when the chain verified. */
  trustErrorCode?: string | null;
  /** Why no certificate could be obtained (connection refused, timeout, STARTTLS refused, …). */
  unreachable?: string | null;
  /** Notify thresholds in days: a certificate is `expiring` once its days left reach the largest. */
  notifyDays: readonly number[];
}

export interface CertificateVerdictResult {
  verdict: CertificateVerdict;
  reason: string;
  /** Whole days until notAfter, rounded down (negative once expired); null without a certificate. */
  daysLeft: number | null;
}

/** Whole days from `now` to `notAfter`, rounded down: 23 hours left is 0 days, 1 hour past is -1. */
export function daysLeftOf(now: number, notAfter: number): number {
  return Math.floor((notAfter - now) / DAY_MS);
}

/**
 * OpenSSL's verification codes (what node gives as `authorizationError.code`) in Chinese. The
 * ones a real monitor meets; any other reads as 证书不受信任 with the code.
 */
const TRUST_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: '自签名证书，不受信任（证书由其自身签发，不在信任的根证书中）',
  SELF_SIGNED_CERT_IN_CHAIN: '证书链中的根证书是自签名的且不受信任（内部 CA 签发的证书请添加其根证书）',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    '证书链不完整或颁发者不受信任（服务器未发送中间证书，或根证书不在信任列表中）',
  UNABLE_TO_GET_ISSUER_CERT: '证书链不完整或颁发者不受信任（找不到颁发者证书）',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    '证书链不完整或颁发者不受信任（服务器未发送中间证书，或根证书不在信任列表中）',
  CERT_HAS_EXPIRED: '证书链中有证书已过期',
  CERT_NOT_YET_VALID: '证书链中有证书尚未生效',
  CERT_REVOKED: '证书已被吊销',
  CERT_SIGNATURE_FAILURE: '证书签名无效',
  CERT_UNTRUSTED: '证书不受信任',
  CERT_REJECTED: '证书被拒绝',
  INVALID_CA: '证书链中有证书不能用作 CA',
  PATH_LENGTH_EXCEEDED: '证书链超过允许的长度',
  INVALID_PURPOSE: '证书不能用于 TLS 服务器',
};

/** A trust error code in Chinese. */
export function trustReason(code: string): string {
  return TRUST_REASONS[code] ?? `证书不受信任（${code}）`;
}

/**
 * The verdict of a check, by priority: unreachable > expired (a not-yet-valid certificate is
 * untrusted) > untrusted > mismatch > expiring > ok. One verdict per check, the worst: an expired
 * self-signed certificate is `expired` — what has to be done first is the same either way.
 */
export function certificateVerdict(facts: CertificateFacts): CertificateVerdictResult {
  const { now, notBefore, notAfter } = facts;
  if (facts.unreachable || notAfter === null) {
    return {
      verdict: 'unreachable',
      reason: `无法取得证书：${facts.unreachable || '服务器未提供证书'}`,
      daysLeft: null,
    };
  }
  const daysLeft = daysLeftOf(now, notAfter);
  if (now >= notAfter) {
    return { verdict: 'expired', reason: `证书已于 ${formatDateTime(notAfter)} 过期`, daysLeft };
  }
  if (notBefore !== null && now < notBefore) {
    return {
      verdict: 'untrusted',
      reason: `证书尚未生效（生效时间 ${formatDateTime(notBefore)}）`,
      daysLeft,
    };
  }
  if (facts.trustErrorCode) {
    return { verdict: 'untrusted', reason: trustReason(facts.trustErrorCode), daysLeft };
  }
  if (facts.hostnameError) {
    const host = facts.host ? `（${facts.host}）` : '';
    return { verdict: 'mismatch', reason: `证书与域名不匹配${host}：证书中没有这个域名`, daysLeft };
  }
  const warnAt = facts.notifyDays.length > 0 ? Math.max(...facts.notifyDays) : null;
  if (warnAt !== null && daysLeft <= warnAt) {
    return {
      verdict: 'expiring',
      reason: `证书即将到期：剩余 ${daysLeft} 天（${formatDateTime(notAfter)} 到期）`,
      daysLeft,
    };
  }
  return { verdict: 'ok', reason: `证书有效，剩余 ${daysLeft} 天`, daysLeft };
}

/**
 * The thresholds this check crosses that were not yet notified for this certificate (its
 * fingerprint), smallest first: a job notifies once, for the smallest of them, and records them
 * all — so a certificate first seen 5 days before expiry gives one notice, not three, and a
 * renewed certificate (a new fingerprint, `alreadyNotified` empty) starts afresh.
 */
export function thresholdsDue(
  daysLeft: number | null,
  notifyDays: readonly number[],
  alreadyNotified: readonly number[],
): number[] {
  if (daysLeft === null) return [];
  const done = new Set(alreadyNotified);
  return [...new Set(notifyDays)].filter((t) => daysLeft <= t && !done.has(t)).sort((a, b) => a - b);
}

/** The certificate job status a verdict stands for. */
export function sslJobStatusOf(verdict: CertificateVerdict): SslJobStatus {
  switch (verdict) {
    case 'ok':
    case 'expiring':
    case 'expired':
      return verdict;
    default:
      return 'error';
  }
}

/** Process exit code of `wanxiang ssl check` for a verdict: 0 ok, 1 expiring, 2 anything else. */
export function verdictExitCode(verdict: CertificateVerdict): 0 | 1 | 2 {
  return verdict === 'ok' ? 0 : verdict === 'expiring' ? 1 : 2;
}

/** The verdicts in Chinese, as the sslJobs definition labels them. */
export const VERDICT_LABEL: Record<CertificateVerdict, string> = {
  ok: '正常',
  expiring: '即将到期',
  expired: '已过期',
  mismatch: '域名不匹配',
  untrusted: '不受信任',
  unreachable: '无法连接',
};
