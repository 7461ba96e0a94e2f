/**
 * Building the envelope of API.md. Handlers return `ok(data)`; failures are thrown as
 * `ApiError` and the error plugin turns them into the failure envelope.
 */
import { ErrorCode, type FailureEnvelope, type SuccessEnvelope, t } from '@wanxiang/core';

export function ok<T>(data: T, message?: string): SuccessEnvelope<T> {
  return message === undefined ? { success: true, data } : { success: true, data, message };
}

/**
 * JSON to put into an answer as it is: text, UTF-8 bytes (a list page that SQLite wrote), or the
 * UTF-8 pieces that make it up in order (a page of kept rows, copied once, into the answer).
 */
export class JsonText {
  constructor(readonly json: string | Buffer | readonly Buffer[]) {}
}

/**
 * `JSON.stringify(ok(data))` as UTF-8 bytes, where `JsonText` values of `data` go in as they
 * are. The route sends it with a JSON content type, so Fastify does not serialise it again.
 */
export function okBytes(data: Record<string, unknown>): Buffer {
  const parts: (string | Buffer)[] = [];
  let text = '{"success":true,"data":{';
  let first = true;
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (value instanceof JsonText) {
      parts.push(text);
      if (Array.isArray(value.json)) parts.push(...value.json);
      else parts.push(value.json as string | Buffer);
      text = '';
    } else text += JSON.stringify(value);
  }
  parts.push(`${text}}}`);
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}

/** The content type of JSON answers, as Fastify sets it for serialised ones. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface ApiErrorInit {
  /** HTTP status; login failures and revoked sessions answer 200 with a non-zero errorCode. */
  status: number;
  errorCode: number;
  message: string;
  data?: FailureEnvelope['data'];
  headers?: Record<string, string>;
}

/** A failure the caller should see as it is (everything else becomes a 500). */
export class ApiError extends Error {
  readonly status: number;
  readonly errorCode: number;
  readonly data: FailureEnvelope['data'];
  readonly headers: Record<string, string>;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.data = init.data;
    this.headers = init.headers ?? {};
  }

  toEnvelope(): FailureEnvelope {
    const body: FailureEnvelope = { success: false, errorCode: this.errorCode, message: this.message };
    if (this.data !== undefined) body.data = this.data;
    return body;
  }
}

export const unauthorized = () =>
  new ApiError({ status: 401, errorCode: ErrorCode.unauthorized, message: t('unauthorized') });

export const sessionRevoked = () =>
  new ApiError({ status: 200, errorCode: ErrorCode.sessionRevoked, message: t('sessionRevoked') });

export const forbidden = () =>
  new ApiError({ status: 403, errorCode: ErrorCode.forbidden, message: t('forbidden') });

export const notFound = (message: string = t('apiNotFound')) =>
  new ApiError({ status: 404, errorCode: ErrorCode.notFound, message });

export const invalidInput = (fields?: Record<string, string>, message: string = t('invalidInput')) =>
  new ApiError({
    status: 422,
    errorCode: ErrorCode.invalidInput,
    message,
    data: fields ? { fields } : undefined,
  });

export const tooManyRequests = (retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError({
    status: 429,
    errorCode: ErrorCode.tooManyRequests,
    message: t('tooManyRequests', { seconds }),
    data: { retryAfterS: seconds },
    headers: { 'retry-after': String(seconds) },
  });
};

export const conflict = (message: string, fields?: Record<string, string>) =>
  new ApiError({
    status: 409,
    errorCode: ErrorCode.conflict,
    message,
    data: fields ? { fields } : undefined,
  });
