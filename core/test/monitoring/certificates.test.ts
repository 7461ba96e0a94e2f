/**
 * Certificate rules: every verdict with its Chinese reason, their priority, the days-left edges,
 * and expiry thresholds due once per certificate fingerprint.
 */
import { describe, expect, it } from 'vitest';
import {
  type CertificateFacts,
  certificateVerdict,
  daysLeftOf,
  STARTTLS_DEFAULT_PORTS,
  STARTTLS_PROTOCOLS,
  sslJobStatusOf,
  thresholdsDue,
  trustReason,
  verdictExitCode,
} from '../../src/index';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-01T00:00:00.000Z');

const facts = (over: Partial<CertificateFacts> = {}): CertificateFacts => ({
  now: NOW,
  notBefore: NOW - 30 * DAY,
  notAfter: NOW + 60 * DAY,
  notifyDays: [7, 14, 21],
  ...over,
});

describe('certificateVerdict', () => {
  it('ok with the days left', () => {
    expect(certificateVerdict(facts())).toEqual({
      verdict: 'ok',
      reason: '证书有效，剩余 60 天',
      daysLeft: 60,
    });
  });

  it('expiring once the days left reach the largest threshold', () => {
    expect(certificateVerdict(facts({ notAfter: NOW + 21 * DAY })).verdict).toBe('expiring');
    expect(certificateVerdict(facts({ notAfter: NOW + 22 * DAY - 1 })).verdict).toBe('expiring');
    expect(certificateVerdict(facts({ notAfter: NOW + 22 * DAY })).verdict).toBe('ok');
    const five = certificateVerdict(facts({ notAfter: NOW + 5 * DAY }));
    expect(five).toMatchObject({ verdict: 'expiring', daysLeft: 5 });
    expect(five.reason).toContain('剩余 5 天');
  });

  it('no thresholds: never expiring', () => {
    expect(certificateVerdict(facts({ notAfter: NOW + DAY, notifyDays: [] })).verdict).toBe('ok');
  });

  it('expired at notAfter, with negative days', () => {
    const at = certificateVerdict(facts({ notAfter: NOW }));
    expect(at.verdict).toBe('expired');
    expect(at.daysLeft).toBe(0);
    expect(at.reason).toBe('证书已于 2026-03-01 08:00 过期');
    expect(certificateVerdict(facts({ notAfter: NOW - 3 * DAY })).daysLeft).toBe(-3);
    expect(certificateVerdict(facts({ notAfter: NOW - 1 })).daysLeft).toBe(-1);
    // One millisecond before: still valid, 0 whole days left.
    expect(certificateVerdict(facts({ notAfter: NOW + 1 }))).toMatchObject({
      verdict: 'expiring',
      daysLeft: 0,
    });
  });

  it('not yet valid is untrusted', () => {
    const r = certificateVerdict(facts({ notBefore: NOW + DAY }));
    expect(r.verdict).toBe('untrusted');
    expect(r.reason).toContain('尚未生效');
  });

  it('untrusted with the reason of each OpenSSL code', () => {
    const self = certificateVerdict(facts({ trustErrorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }));
    expect(self.verdict).toBe('untrusted');
    expect(self.reason).toMatch(/^自签名证书/);
    for (const code of [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'UNABLE_TO_GET_ISSUER_CERT',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    ]) {
      expect(certificateVerdict(facts({ trustErrorCode: code })).reason).toMatch(
        /^证书链不完整或颁发者不受信任/,
      );
    }
    expect(trustReason('SOMETHING_ELSE')).toBe('证书不受信任（SOMETHING_ELSE）');
  });

  it('mismatch names the host', () => {
    const r = certificateVerdict(
      facts({ hostnameError: "Host: a.test. is not in the cert's altnames", host: 'a.test' }),
    );
    expect(r).toMatchObject({ verdict: 'mismatch', daysLeft: 60 });
    expect(r.reason).toBe('证书与域名不匹配（a.test）：证书中没有这个域名');
  });

  it('unreachable has no figures', () => {
    expect(certificateVerdict(facts({ unreachable: '连接被拒绝' }))).toEqual({
      verdict: 'unreachable',
      reason: '无法取得证书：连接被拒绝',
      daysLeft: null,
    });
    expect(certificateVerdict(facts({ notBefore: null, notAfter: null })).verdict).toBe('unreachable');
  });

  it('priority: unreachable > expired > untrusted > mismatch > expiring > ok', () => {
    const all = {
      unreachable: 'x',
      notAfter: NOW - DAY,
      trustErrorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      hostnameError: 'x',
    };
    expect(certificateVerdict(facts(all)).verdict).toBe('unreachable');
    expect(certificateVerdict(facts({ ...all, unreachable: null })).verdict).toBe('expired');
    expect(certificateVerdict(facts({ ...all, unreachable: null, notAfter: NOW + 3 * DAY })).verdict).toBe(
      'untrusted',
    );
    expect(certificateVerdict(facts({ hostnameError: 'x', notAfter: NOW + 3 * DAY })).verdict).toBe(
      'mismatch',
    );
  });
});

describe('daysLeftOf', () => {
  it('rounds down whole days', () => {
    expect(daysLeftOf(NOW, NOW + DAY - 1)).toBe(0);
    expect(daysLeftOf(NOW, NOW + DAY)).toBe(1);
    expect(daysLeftOf(NOW, NOW - 1)).toBe(-1);
  });
});

describe('thresholdsDue', () => {
  it('every crossed threshold not yet notified, smallest first', () => {
    expect(thresholdsDue(30, [7, 14, 21], [])).toEqual([]);
    expect(thresholdsDue(21, [7, 14, 21], [])).toEqual([21]);
    expect(thresholdsDue(5, [21, 7, 14], [])).toEqual([7, 14, 21]);
    expect(thresholdsDue(5, [7, 14, 21], [14, 21])).toEqual([7]);
    expect(thresholdsDue(-2, [7, 14], [])).toEqual([7, 14]);
  });

  it('once per fingerprint: notified thresholds do not come again', () => {
    let notified: number[] = [];
    const fired: number[][] = [];
    for (const days of [25, 21, 20, 14, 13, 10, 7, 6, 0]) {
      const due = thresholdsDue(days, [7, 14, 21], notified);
      if (due.length > 0) fired.push(due);
      notified = [...notified, ...due];
    }
    expect(fired).toEqual([[21], [14], [7]]);
    // A renewed certificate (new fingerprint): nothing notified yet.
    expect(thresholdsDue(80, [7, 14, 21], [])).toEqual([]);
  });

  it('no certificate, no thresholds; duplicates once', () => {
    expect(thresholdsDue(null, [7], [])).toEqual([]);
    expect(thresholdsDue(3, [7, 7], [])).toEqual([7]);
  });
});

describe('job status, exit code, STARTTLS', () => {
  it('maps verdicts', () => {
    expect(sslJobStatusOf('ok')).toBe('ok');
    expect(sslJobStatusOf('expiring')).toBe('expiring');
    expect(sslJobStatusOf('expired')).toBe('expired');
    for (const v of ['mismatch', 'untrusted', 'unreachable'] as const) {
      expect(sslJobStatusOf(v)).toBe('error');
      expect(verdictExitCode(v)).toBe(2);
    }
    expect(verdictExitCode('ok')).toBe(0);
    expect(verdictExitCode('expiring')).toBe(1);
    expect(verdictExitCode('expired')).toBe(2);
  });

  it('STARTTLS protocols and ports', () => {
    expect(STARTTLS_PROTOCOLS).toEqual(['smtp', 'imap', 'pop3']);
    expect(STARTTLS_DEFAULT_PORTS).toEqual({ smtp: 25, imap: 143, pop3: 110 });
  });
});
