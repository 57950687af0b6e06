/**
 * The one error shape, `{"error": {"code", "message", "details?"}}`, and AppError, the expected
 * failure every layer throws. Neutral: it knows no transport; http/errors.ts maps it to answers.
 */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function errorBody(code: string, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}
