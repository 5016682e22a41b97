/** A non-2xx answer of the daemon: its stable `code`, its `error` text and status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  static isInstance(value: unknown): value is ApiError {
    return value instanceof Error && value.name === 'ApiError' && typeof (value as ApiError).code === 'string';
  }
}

/** Reads the error body `{error, code, details}`; a body that is not one (a proxy's page) still becomes an ApiError. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: fall through to the status text.
  }
  if (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string') {
    const { code, error, details } = body as { code: string; error?: unknown; details?: Record<string, unknown> };
    return new ApiError(response.status, code, typeof error === 'string' ? error : code, details);
  }
  return new ApiError(response.status, `http_${response.status}`, response.statusText || `HTTP ${response.status}`);
}

/** Any thrown value as an ApiError, so the views show one shape (a network failure has code `network_error`). */
export function toApiError(error: unknown): ApiError {
  if (ApiError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(0, 'network_error', message);
}
