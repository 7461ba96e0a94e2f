import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  codeAt,
  codesAt,
  groupDigits,
  newSecret,
  otpauthUri,
  parseTotpInput,
  remainingMs,
  type TotpAlgorithm,
  type TotpConfig,
} from '../../src/index';

// RFC 6238 Appendix B: the seeds are these ASCII strings, 8 digits, 30 s steps.
const SEEDS: Record<TotpAlgorithm, string> = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
};
const VECTORS: [number, Record<TotpAlgorithm, string>][] = [
  [59, { SHA1: '94287082', SHA256: '46119246', SHA512: '90693936' }],
  [1111111109, { SHA1: '07081804', SHA256: '68084774', SHA512: '25091201' }],
  [1111111111, { SHA1: '14050471', SHA256: '67062674', SHA512: '99943326' }],
  [1234567890, { SHA1: '89005924', SHA256: '91819424', SHA512: '93441116' }],
  [2000000000, { SHA1: '69279037', SHA256: '90698825', SHA512: '38618901' }],
  [20000000000, { SHA1: '65353130', SHA256: '77737706', SHA512: '47863826' }],
];

const config = (algorithm: TotpAlgorithm): TotpConfig => ({
  secret: Secret.fromUTF8(SEEDS[algorithm]).base32,
  digits: 8,
  period: 30,
  algorithm,
  issuer: '',
  account: '',
});

describe('RFC 6238 Appendix B test vectors', () => {
  for (const algorithm of ['SHA1', 'SHA256', 'SHA512'] as const) {
    it.each(VECTORS)(`${algorithm} at T = %i s`, (seconds, codes) => {
      expect(codeAt(config(algorithm), seconds * 1000)).toBe(codes[algorithm]);
    });
  }

  it('gives the same codes from an otpauth URI carrying the parameters', () => {
    const { secret } = config('SHA256');
    const parsed = parseTotpInput(
      `otpauth://totp/ACME:alice?secret=${secret}&algorithm=SHA256&digits=8&period=30&issuer=ACME`,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config).toMatchObject({
      algorithm: 'SHA256',
      digits: 8,
      period: 30,
      issuer: 'ACME',
      account: 'alice',
    });
    expect(codeAt(parsed.config, 1111111109_000)).toBe('68084774');
  });
});

describe('reading what people paste', () => {
  it('takes a Base32 secret with spaces, lower case and padding, with the usual defaults', () => {
    const parsed = parseTotpInput(' jbsw y3dp ehpk 3pxp== ');
    expect(parsed).toEqual({
      ok: true,
      fromUri: false,
      config: {
        secret: 'JBSWY3DPEHPK3PXP',
        digits: 6,
        period: 30,
        algorithm: 'SHA1',
        issuer: '',
        account: '',
      },
    });
  });

  it.each([
    ['', '请输入密钥'],
    ['JBSWY3DPEHPK3PX1', '密钥不是有效的 Base32：只能包含字母 A–Z 和数字 2–7'],
    ['JBSWY3DP', '密钥太短：至少 16 个字符（80 位）'],
    [
      'otpauth://totp/x?issuer=a',
      'otpauth 链接格式不正确，应形如 otpauth://totp/发行方:账号?secret=…&issuer=…',
    ],
    ['otpauth://totp/x?secret=JBSWY3DPEHPK3PX1', '链接中的 secret 不是有效的 Base32'],
    [
      'otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP&counter=1',
      '这是基于计数器的 HOTP 链接，本工具只支持基于时间的 TOTP',
    ],
    ['otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&period=0', '链接中的 period 须为正整数'],
    [
      'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&algorithm=MD5',
      '不支持的算法 MD5：只支持 SHA1、SHA256、SHA512',
    ],
  ])('refuses %j with a Chinese message', (input, error) => {
    expect(parseTotpInput(input)).toEqual({ ok: false, error });
  });
});

describe('countdown and next code', () => {
  it('counts down to the next 30 s step and gives the next code', () => {
    const c = { ...config('SHA1'), digits: 8 };
    expect(remainingMs(30, 59_000)).toBe(1_000);
    expect(remainingMs(30, 60_000)).toBe(30_000);
    const at = codesAt(c, 1111111109_000);
    expect(at).toMatchObject({ current: '07081804', remainingMs: 1_000, counter: 37037036 });
    expect(at.next).toBe(codeAt(c, 1111111110_000));
    expect(at.next).toBe('14050471');
  });
});

describe('new secrets', () => {
  it('are 160 random bits in Base32 and round-trip through their otpauth URI', () => {
    const a = newSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newSecret()).not.toBe(a);
    const uri = otpauthUri({
      secret: a,
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
      issuer: '万象',
      account: 'alice@example.com',
    });
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    const back = parseTotpInput(uri);
    expect(back).toMatchObject({
      ok: true,
      config: { secret: a, issuer: '万象', account: 'alice@example.com' },
    });
  });

  it('groups digits for reading', () => {
    expect(groupDigits('123456')).toBe('123 456');
    expect(groupDigits('12345678')).toBe('1234 5678');
  });
});

describe('verifyTotp (the API market TOTP API)', () => {
  it('accepts the current code and one step of drift either way, nothing further', async () => {
    const { codeAt, parseTotpInput, verifyTotp } = await import('../../src/index');
    const parsed = parseTotpInput('JBSWY3DPEHPK3PXPJBSWY3DP');
    if (!parsed.ok) throw new Error(parsed.error);
    const at = Date.UTC(2025, 0, 1, 8, 0, 15);
    expect(verifyTotp(parsed.config, codeAt(parsed.config, at), at)).toEqual({ valid: true, delta: 0 });
    expect(verifyTotp(parsed.config, codeAt(parsed.config, at - 30_000), at)).toEqual({
      valid: true,
      delta: -1,
    });
    expect(verifyTotp(parsed.config, codeAt(parsed.config, at + 30_000), at).valid).toBe(true);
    expect(verifyTotp(parsed.config, codeAt(parsed.config, at - 90_000), at).valid).toBe(false);
    expect(verifyTotp(parsed.config, '12345', at)).toEqual({ valid: false, delta: null });
  });
});
