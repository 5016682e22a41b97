/**
 * A failure answered with E2B's REST error body `{code, message}`. The SDK's 404/409
 * special cases read the JSON `code`, not the HTTP status, so both always agree.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
