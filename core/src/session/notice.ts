import { isApiError } from '../http/api-error';
import type { NoticeLevel } from '../http/ports';
import { messages } from '../i18n/zh-CN';

/** What machines emit for the host to show (antd notification in the UI, stderr in the CLI). */
export interface Notice {
  type: 'notify';
  level: NoticeLevel;
  message: string;
}

/** A failure as the forms show it: the server's code and message, or a network message. */
export function describeFailure(error: unknown): { code: number | null; message: string } {
  if (isApiError(error)) return { code: error.errorCode, message: error.message };
  // No answer from the server (offline, timeout): ofetch's English text helps nobody here.
  return { code: null, message: messages.networkError };
}
