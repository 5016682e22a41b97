import type { ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { type ApiError, toApiError } from '../api/api-error';

/**
 * Runs one action at a time for a panel: while it runs the panel's buttons are disabled; then
 * either a status message (what the action returns) or the daemon's error is shown beside them.
 */
export function useActionRunner(onSucceeded: () => void) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<ComponentChild>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [failedAction, setFailedAction] = useState('');

  async function run(action: string, work: () => Promise<ComponentChild>): Promise<void> {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      const message = await work();
      setStatus(message);
      onSucceeded();
    } catch (failure) {
      setFailedAction(action);
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  }

  function say(message: ComponentChild) {
    setError(null);
    setStatus(message);
  }

  return { busy, status, error, failedAction, run, say };
}
