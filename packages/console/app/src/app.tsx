import { useMemo, useRef, useState } from 'preact/hooks';
import { createApiClient } from './api/api-client';
import { ApiClientContext } from './api/api-context';
import { type ApiError, toApiError } from './api/api-error';
import { createKeyStorage } from './api/key-storage';
import { Layout } from './components/layout';
import { useAuthProbe } from './components/use-auth-probe';
import { useHashRoute } from './router/use-hash-route';
import { SignInView } from './views/sign-in-view';
import { RouteView } from './views/route-view';

export type SessionState = 'checking' | 'signed-out' | 'signed-in';

/** The console: decides whether a key is needed, then shows the routed view with the signed-in client. */
export function App() {
  const keyStorage = useMemo(() => createKeyStorage(window.sessionStorage, window.localStorage), []);
  const keyRef = useRef<string | null>(keyStorage.read());
  const [session, setSession] = useState<SessionState>(keyRef.current ? 'signed-in' : 'checking');
  const [signInMessage, setSignInMessage] = useState<ApiError | null>(null);
  const route = useHashRoute();

  const client = useMemo(
    () =>
      createApiClient({
        readKey: () => keyRef.current,
        onUnauthorized: (error) => {
          setSignInMessage(error);
          setSession('signed-out');
        },
      }),
    [],
  );

  useAuthProbe(client, session === 'checking', (needsKey, error) => {
    setSignInMessage(error);
    setSession(needsKey ? 'signed-out' : 'signed-in');
  });

  async function signIn(key: string, remember: boolean): Promise<void> {
    const previousKey = keyRef.current;
    keyRef.current = key;
    try {
      await client.get('/runtimes', { limit: 1 });
    } catch (error) {
      keyRef.current = previousKey;
      setSignInMessage(toApiError(error));
      setSession('signed-out');
      return;
    }
    keyStorage.save(key, remember);
    setSignInMessage(null);
    setSession('signed-in');
  }

  function signOut(): void {
    keyStorage.clear();
    keyRef.current = null;
    setSignInMessage(null);
    setSession('signed-out');
  }

  return (
    <Layout route={route} signedIn={session === 'signed-in'} onSignOut={signOut}>
      {session === 'checking' ? <p>Connecting to the daemon…</p> : null}
      {session === 'signed-out' ? <SignInView message={signInMessage} onSignIn={signIn} /> : null}
      {session === 'signed-in' ? (
        <ApiClientContext.Provider value={client}>
          <RouteView route={route} />
        </ApiClientContext.Provider>
      ) : null}
    </Layout>
  );
}
