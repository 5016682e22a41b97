import { useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';

interface SignInViewProps {
  message: ApiError | null;
  onSignIn(key: string, remember: boolean): Promise<void>;
}

/** The one place the API key is typed: a password field, never echoed, never put in a URL. */
export function SignInView({ message, onSignIn }: SignInViewProps) {
  usePageTitle('Sign in');
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    if (!key.trim()) return;
    setBusy(true);
    await onSignIn(key.trim(), remember);
    setBusy(false);
  }

  return (
    <section class="sign-in" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in</h1>
      <p>The daemon asks for an API key (or its bearer token). It is kept in this tab only, unless you ask to be remembered.</p>
      <form method="post" onSubmit={submit} class="stacked-form">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="current-password"
          required
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
        />
        <label class="checkbox-label">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
          Remember on this device
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorAlert error={message} context="Sign-in" />
    </section>
  );
}
