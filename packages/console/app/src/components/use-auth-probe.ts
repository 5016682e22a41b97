import { useEffect } from 'preact/hooks';
import type { ApiClient } from '../api/api-client';
import { type ApiError, toApiError } from '../api/api-error';

/**
 * Without a stored key, asks the daemon once whether it wants one: a 200 means it runs without
 * auth (loopback only), so the form is skipped; a 401 shows the form. Anything else shows the
 * form with the error, since the console cannot work either way.
 */
export function useAuthProbe(client: ApiClient, active: boolean, onResult: (needsKey: boolean, error: ApiError | null) => void): void {
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    client.get('/runtimes', { limit: 1 }, controller.signal).then(
      () => onResult(false, null),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = toApiError(error);
        onResult(true, apiError.status === 401 ? null : apiError);
      },
    );
    return () => controller.abort();
    // Runs once per activation; onResult only sets state.
  }, [client, active]);
}
