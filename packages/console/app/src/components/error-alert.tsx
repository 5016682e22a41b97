import type { ApiError } from '../api/api-error';

/** The daemon's refusal beside the action that caused it: its stable code first, then its text. */
export function ErrorAlert({ error, context }: { error: ApiError | null; context?: string }) {
  if (!error) return null;
  return (
    <div role="alert" class="alert">
      {context ? <span>{context}: </span> : null}
      <code class="error-code">{error.code}</code> <span>{error.message}</span>
    </div>
  );
}
