/**
 * Telling the user why a call failed without telling them twice: core's HTTP client already
 * toasts 500s (系统错误), 401s (登录超时) and `success: false` answers of mutations; 403, 404,
 * 409, 422 and 429 are the caller's (spec §8 "other failures are passed on"), as are network
 * failures, which have no answer at all.
 */
import { describeFailure, isApiError } from '@wanxiang/core';

/** The message to show for a failure, or null when the HTTP client has shown it already. */
export function unreportedFailure(error: unknown, silentRequest = false): string | null {
  if (!isApiError(error)) return describeFailure(error).message;
  if (error.status === 401 || error.status === 500) return null;
  if (error.status >= 200 && error.status < 300) return silentRequest ? error.message : null;
  return error.message;
}
