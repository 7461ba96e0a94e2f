/**
 * The wire envelope shared by server, UI and CLI (shared/design/API.md "Envelope").
 * One definition so the server answers exactly what the clients parse.
 */

/** errorCode values of the envelope table. HTTP-mirroring codes equal their status. */
export const ErrorCode = {
  /** The session was revoked by an administrator or the account disabled: HTTP 200. */
  sessionRevoked: 1,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  payloadTooLarge: 413,
  invalidInput: 422,
  tooManyRequests: 429,
  serverError: 500,
  /** Login-specific failures (HTTP 200). */
  wrongCaptcha: 10001,
  wrongCredentials: 10002,
  accountDisabled: 10003,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface SuccessEnvelope<T = unknown> {
  success: true;
  data: T;
  message?: string;
}

export interface FailureEnvelope {
  success: false;
  errorCode: number;
  message: string;
  data?: { fields?: Record<string, string>; requestId?: string; retryAfterS?: number };
}

export type Envelope<T = unknown> = SuccessEnvelope<T> | FailureEnvelope;

/** GET /api/captcha/request — the captcha id and image sit at the top level (spec §7). */
export interface CaptchaAnswer {
  success: true;
  captchaId: string;
  /** `data:image/svg+xml;base64,…` */
  data: string;
}

export interface SignInRequest {
  username: string;
  password: string;
  captchaId: string;
  captchaCode: string;
}

export interface SignInResult {
  token: string;
  authority: string[];
  /** Epoch milliseconds. */
  expire: number;
}

export interface CurrentUser {
  id: number;
  username: string;
  nickname: string | null;
  avatar?: string | null;
  roles: string[];
  permissions: string[];
}

export interface PublicConfig {
  productName: string;
  pageTitle: string;
  copyright: string;
  version: string;
  wsHost: string;
  apiHost: string;
  allowRegistration: boolean;
}
