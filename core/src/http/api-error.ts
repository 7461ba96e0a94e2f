/** A failure the server answered (as opposed to a network failure, which is passed on unchanged). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** `errorCode` (or legacy `code`) of the body; the HTTP status when the body has none. */
    readonly errorCode: number,
    message: string,
    /** Per-field messages of a 422 (`data.fields`). */
    readonly fields: Record<string, string> = {},
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
