/**
 * The error catalogue of spec §8 as one pure function: from (HTTP status, body, request kind)
 * to an outcome — resolve or reject — plus the effects the host must run. No I/O here, so every
 * row is testable as data; `runEffects` executes them through the ports.
 */
import { messages, t } from '../i18n/zh-CN';
import { ApiError } from './api-error';
import type { HttpPorts, NoticeLevel } from './ports';

/**
 * - `query`: reads; failures toast, successes are silent.
 * - `mutation`: writes; success toasts the server message or 操作成功.
 * - `silent`: the caller reports both (e.g. the login form's 登录失败 toast). Session-wide rows
 *   (errorCode 1, 401, 500) still apply.
 */
export type RequestKind = 'query' | 'mutation' | 'silent';

export type Effect =
  | { type: 'notify'; level: NoticeLevel; message: string }
  | { type: 'removeToken' }
  | { type: 'logout' }
  | { type: 'reload' };

export type Outcome =
  | { result: 'resolve'; value: unknown; effects: Effect[] }
  | { result: 'reject'; error: ApiError; effects: Effect[] };

interface NormalisedBody {
  success: boolean | undefined;
  errorCode: number | undefined;
  message: string | undefined;
  fields: Record<string, string>;
}

/** Tolerates `code`/`errorCode` and `msg`/`message`, and bodies that are not objects. */
export function normaliseBody(body: unknown): NormalisedBody {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const rawCode = b.errorCode ?? b.code;
  const code =
    typeof rawCode === 'number'
      ? rawCode
      : typeof rawCode === 'string' && rawCode.trim() !== ''
        ? Number(rawCode)
        : undefined;
  const rawMessage = b.message ?? b.msg;
  const data = b.data && typeof b.data === 'object' ? (b.data as Record<string, unknown>) : {};
  const fields =
    data.fields && typeof data.fields === 'object' ? (data.fields as Record<string, string>) : {};
  return {
    success: typeof b.success === 'boolean' ? b.success : undefined,
    errorCode: Number.isFinite(code) ? code : undefined,
    message: typeof rawMessage === 'string' && rawMessage !== '' ? rawMessage : undefined,
    fields,
  };
}

export function classify(status: number, body: unknown, kind: RequestKind): Outcome {
  const b = normaliseBody(body);
  const error = (fallback: string) =>
    new ApiError(status, b.errorCode ?? status, b.message ?? fallback, b.fields, body);

  if (status === 401) {
    return {
      result: 'reject',
      error: error(messages.unauthorized),
      effects: [
        { type: 'removeToken' },
        { type: 'logout' },
        { type: 'notify', level: 'warning', message: t('loginTimeout', { message: b.message ?? '' }).trim() },
        { type: 'reload' },
      ],
    };
  }
  if (status === 500) {
    return {
      result: 'reject',
      error: error(messages.operationFailed),
      effects: [
        { type: 'notify', level: 'error', message: t('systemError', { message: b.message ?? '' }).trim() },
      ],
    };
  }
  if (status < 200 || status >= 300) {
    // Other failures are the caller's to handle (403/404/409/422/429…).
    return { result: 'reject', error: error(messages.operationFailed), effects: [] };
  }
  if (b.success === false && b.errorCode === 1) {
    return {
      result: 'reject',
      error: error(messages.sessionRevoked),
      effects: [{ type: 'removeToken' }, { type: 'reload' }],
    };
  }
  if (b.success === false) {
    const failure = error(messages.operationFailed);
    const effects: Effect[] =
      kind === 'silent' ? [] : [{ type: 'notify', level: 'error', message: failure.message }];
    return { result: 'reject', error: failure, effects };
  }
  const effects: Effect[] =
    kind === 'mutation'
      ? [{ type: 'notify', level: 'success', message: b.message ?? messages.operationSucceeded }]
      : [];
  return { result: 'resolve', value: body, effects };
}

export function runEffects(effects: readonly Effect[], ports: HttpPorts): void {
  for (const effect of effects) {
    switch (effect.type) {
      case 'notify':
        ports.notifier.notify(effect.level, effect.message);
        break;
      case 'removeToken':
        ports.tokenStore.remove();
        break;
      case 'logout':
        ports.onLogout();
        break;
      case 'reload':
        ports.reload();
        break;
    }
  }
}
