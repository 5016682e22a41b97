import { useEffect, useState } from 'preact/hooks';
import { type ApiError, toApiError } from '../api/api-error';

export interface ApiCallState<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
}

/**
 * Runs `load` whenever `dependencies` change (or `reloadToken` moves), aborting the previous call,
 * and keeps the last data while a reload runs so tables do not flash empty.
 */
export function useApiCall<T>(load: (signal: AbortSignal) => Promise<T>, dependencies: unknown[]): ApiCallState<T> {
  const [state, setState] = useState<ApiCallState<T>>({ data: null, error: null, loading: true });
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((previous) => ({ data: previous.data, error: toApiError(error), loading: false }));
      },
    );
    return () => controller.abort();
    // The caller lists what `load` depends on, as with useEffect.
  }, dependencies);
  return state;
}
