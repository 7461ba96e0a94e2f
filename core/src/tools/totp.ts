/**
 * The one-time-code logic of /tool/google_code (RFC 6238 TOTP, Google Authenticator's key URI
 * format), on otpauth — and of the API market's TOTP API, which verifies a code with the same
 * parsing. Nothing here touches the network: on /tool/google_code a secret never leaves the page.
 */
import { Secret, TOTP, URI } from 'otpauth';

export type TotpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

export interface TotpConfig {
  /** Base32, upper case, no padding or spaces. */
  secret: string;
  digits: number;
  period: number;
  algorithm: TotpAlgorithm;
  issuer: string;
  account: string;
}

export type ParsedInput = { ok: true; config: TotpConfig; fromUri: boolean } | { ok: false; error: string };

export const TOTP_DEFAULTS = { digits: 6, period: 30, algorithm: 'SHA1' as TotpAlgorithm };

/** RFC 4226 asks for at least 128 bits; 80 bits (16 characters) is what most services hand out. */
const MIN_SECRET_CHARS = 16;
const BASE32 = /^[A-Z2-7]+$/;

/** Upper case, without spaces, dashes and `=` padding, as authenticator apps accept it. */
export function normalizeBase32(text: string): string {
  return text.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
}

function checkBase32(secret: string): string | null {
  if (secret === '') return '请输入密钥';
  if (!BASE32.test(secret)) return '密钥不是有效的 Base32：只能包含字母 A–Z 和数字 2–7';
  if (secret.length < MIN_SECRET_CHARS) return `密钥太短：至少 ${MIN_SECRET_CHARS} 个字符（80 位）`;
  if ((secret.length * 5) % 8 >= 5) return '密钥长度不对，可能少复制了字符';
  return null;
}

/** A pasted Base32 secret or `otpauth://totp/…` URI → the code's parameters, or a Chinese error. */
export function parseTotpInput(input: string): ParsedInput {
  const text = input.trim();
  if (/^otpauth:\/\//i.test(text)) {
    if (/^otpauth:\/\/hotp\//i.test(text))
      return { ok: false, error: '这是基于计数器的 HOTP 链接，本工具只支持基于时间的 TOTP' };
    // Checked here first for a precise message (the library says only "invalid URI").
    const query = new URLSearchParams(text.includes('?') ? text.slice(text.indexOf('?') + 1) : '');
    const rawSecret = query.get('secret');
    if (rawSecret !== null) {
      const secret = normalizeBase32(rawSecret);
      if (secret !== '' && !BASE32.test(secret))
        return { ok: false, error: '链接中的 secret 不是有效的 Base32' };
    }
    const rawAlgorithm = query.get('algorithm');
    if (rawAlgorithm !== null && !['SHA1', 'SHA256', 'SHA512'].includes(rawAlgorithm.toUpperCase()))
      return { ok: false, error: `不支持的算法 ${rawAlgorithm}：只支持 SHA1、SHA256、SHA512` };
    let parsed: ReturnType<typeof URI.parse>;
    try {
      parsed = URI.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (/Invalid character/.test(message)) return { ok: false, error: '链接中的 secret 不是有效的 Base32' };
      if (/period/i.test(message)) return { ok: false, error: '链接中的 period 须为正整数' };
      if (/digits/i.test(message)) return { ok: false, error: '链接中的 digits 须为正整数' };
      return {
        ok: false,
        error: 'otpauth 链接格式不正确，应形如 otpauth://totp/发行方:账号?secret=…&issuer=…',
      };
    }
    if (!(parsed instanceof TOTP)) return { ok: false, error: '本工具只支持基于时间的 TOTP 链接' };
    const algorithm = parsed.algorithm.toUpperCase();
    if (algorithm !== 'SHA1' && algorithm !== 'SHA256' && algorithm !== 'SHA512')
      return { ok: false, error: `不支持的算法 ${parsed.algorithm}：只支持 SHA1、SHA256、SHA512` };
    if (parsed.digits < 6 || parsed.digits > 10)
      return { ok: false, error: '链接中的 digits 须在 6 到 10 之间' };
    const secret = parsed.secret.base32;
    const problem = checkBase32(secret);
    if (problem) return { ok: false, error: problem };
    return {
      ok: true,
      fromUri: true,
      config: {
        secret,
        digits: parsed.digits,
        period: parsed.period,
        algorithm,
        issuer: parsed.issuer,
        account: parsed.label,
      },
    };
  }
  const secret = normalizeBase32(text);
  const problem = checkBase32(secret);
  if (problem) return { ok: false, error: problem };
  return { ok: true, fromUri: false, config: { secret, ...TOTP_DEFAULTS, issuer: '', account: '' } };
}

function totpOf(config: TotpConfig): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(config.secret),
    digits: config.digits,
    period: config.period,
    algorithm: config.algorithm,
    issuer: config.issuer,
    label: config.account || 'account',
  });
}

/** The code valid at `timestampMs`. */
export function codeAt(config: TotpConfig, timestampMs: number): string {
  return totpOf(config).generate({ timestamp: timestampMs });
}

/** The time step number (RFC 6238 T) at `timestampMs`. */
export function counterAt(period: number, timestampMs: number): number {
  return Math.floor(timestampMs / 1000 / period);
}

/** Milliseconds until the next code. */
export function remainingMs(period: number, timestampMs: number): number {
  const periodMs = period * 1000;
  return periodMs - (timestampMs % periodMs);
}

/** The current and the next code with the time left on the current one. */
export function codesAt(config: TotpConfig, timestampMs: number) {
  const left = remainingMs(config.period, timestampMs);
  return {
    current: codeAt(config, timestampMs),
    next: codeAt(config, timestampMs + left),
    remainingMs: left,
    counter: counterAt(config.period, timestampMs),
  };
}

/** A new random 160-bit secret (RFC 4226's recommended length), as Base32. */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` URI an authenticator app scans. */
export function otpauthUri(config: TotpConfig): string {
  return new TOTP({
    secret: Secret.fromBase32(config.secret),
    digits: config.digits,
    period: config.period,
    algorithm: config.algorithm,
    issuer: config.issuer.trim(),
    label: config.account.trim() || '我的账号',
  }).toString();
}

/** `123456` → `123 456`, `12345678` → `1234 5678`: read at a glance. */
export function groupDigits(code: string): string {
  const half = Math.ceil(code.length / 2);
  return `${code.slice(0, half)} ${code.slice(half)}`;
}

/**
 * Whether `code` is valid at `timestampMs`, allowing `window` steps of clock drift each way
 * (RFC 6238 §5.2 recommends one); `delta` is the step offset it matched at (0 = now).
 */
export function verifyTotp(
  config: TotpConfig,
  code: string,
  timestampMs: number,
  window = 1,
): { valid: boolean; delta: number | null } {
  const token = code.replace(/\s/g, '');
  if (!/^\d+$/.test(token) || token.length !== config.digits) return { valid: false, delta: null };
  const delta = totpOf(config).validate({ token, timestamp: timestampMs, window });
  return { valid: delta !== null, delta };
}
