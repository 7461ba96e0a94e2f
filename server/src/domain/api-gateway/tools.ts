/**
 * The tools the gateway serves (marketApis.handler), each calling the platform's own code —
 * never a copy of it:
 *
 * | handler     | in                                              | out (`data`)                           |
 * | ----------- | ----------------------------------------------- | -------------------------------------- |
 * | `totp`      | `secret` (Base32 or otpauth:// URI), `code`     | `{valid, delta}` (core's verifyTotp)   |
 * | `sslCheck`  | `host`, `port?`, `starttls?`, `servername?`     | the check of POST /api/me/ssl/check    |
 * | `palette`   | `color` (HEX, rgb(), hsl())                     | core's palette, notations, contrast    |
 * | `docSearch` | `q`, `categoryId?`, `validity?`, `page?`, `limit?` | GET /api/public/docs's answer       |
 *
 * Input is the query string and, for a JSON body, its fields (the body wins). Bad input is an
 * `ApiError` 422 with Chinese field messages, as the platform's own routes say it.
 */
import {
  BLACK,
  contrastRatio,
  DEFAULT_NOTIFY_DAYS,
  notations,
  palette,
  parseColor,
  parseTotpInput,
  ratioText,
  readableOn,
  relativeLuminance,
  verifyTotp,
  WHITE,
  wcagLevels,
} from '@wanxiang/core';
import type { DialectName } from '../../db/connect.js';
import { invalidInput } from '../../http/envelope.js';
import { OutboundRefusedError, outboundPolicyOf } from '../../net/outbound.js';
import type { AnyDb } from '../../resources/extensions.js';
import { checkCertificate } from '../certificates/check.js';
import { readTarget } from '../certificates/routes.js';
import { settingsOf } from '../certificates/settings.js';
import { parseDocQuery } from '../docs/routes.js';
import { searchDocs } from '../docs/search.js';

export interface ToolContext {
  db: AnyDb;
  dialect: DialectName;
  now: number;
}

export type Tool = (input: Record<string, unknown>, ctx: ToolContext) => Promise<unknown>;

const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

const totp: Tool = async (input, ctx) => {
  const fields: Record<string, string> = {};
  const secret = text(input.secret);
  const code = text(input.code)?.replace(/\s/g, '');
  if (!secret?.trim()) fields.secret = '请提供密钥 secret（Base32 或 otpauth:// 链接）';
  if (!code) fields.code = '请提供要校验的动态口令 code';
  else if (!/^\d{6,10}$/.test(code)) fields.code = '动态口令应为 6 到 10 位数字';
  const parsed = secret?.trim() ? parseTotpInput(secret) : null;
  if (parsed && !parsed.ok) fields.secret = parsed.error;
  if (Object.keys(fields).length > 0 || !parsed?.ok || !code)
    throw invalidInput(fields, Object.values(fields).join('；'));
  const { valid, delta } = verifyTotp(parsed.config, code, ctx.now);
  return { valid, delta, digits: parsed.config.digits, period: parsed.config.period };
};

/**
 * A certificate check as an API user: the key's owner is no monitor operator as far as the
 * gateway knows (a key is not a session), so private, loopback and link-local addresses are
 * refused (422 on host) and nothing connects.
 */
const sslCheck: Tool = async (input, ctx) => {
  // From a query string the port is text; the target rules want a number.
  const port =
    typeof input.port === 'string' && /^\d{1,5}$/.test(input.port) ? Number(input.port) : input.port;
  const target = readTarget({ ...input, ...(port === undefined ? {} : { port }) });
  try {
    return await checkCertificate({
      ...target,
      caPem: target.caBundle,
      policy: outboundPolicyOf([]),
      timeoutMs: settingsOf(ctx.db).timeoutMs,
      now: ctx.now,
      notifyDays: DEFAULT_NOTIFY_DAYS,
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw invalidInput({ host: error.message }, error.message);
    throw error;
  }
};

const paletteTool: Tool = async (input) => {
  const raw = text(input.color);
  if (!raw?.trim())
    throw invalidInput({ color: '请提供颜色 color，如 #1677ff' }, '请提供颜色 color，如 #1677ff');
  const color = parseColor(raw);
  if (!color) {
    const message = '颜色格式不正确：支持 #1677ff、#17f、rgb(22, 119, 255)、hsl(215, 100%, 54%)';
    throw invalidInput({ color: message }, message);
  }
  const onWhite = contrastRatio(color, WHITE);
  const onBlack = contrastRatio(color, BLACK);
  return {
    ...notations(color),
    palette: palette(color),
    luminance: Number(relativeLuminance(color).toFixed(4)),
    contrast: {
      white: { ratio: ratioText(onWhite), ...wcagLevels(onWhite) },
      black: { ratio: ratioText(onBlack), ...wcagLevels(onBlack) },
    },
    readableText: readableOn(color),
  };
};

const docSearch: Tool = async (input, ctx) => searchDocs(ctx.db, ctx.dialect, parseDocQuery(input));

export const TOOLS: Readonly<Record<string, Tool>> = { totp, sslCheck, palette: paletteTool, docSearch };
