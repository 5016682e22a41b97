import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './api-client';

export const ApiClientContext = createContext<ApiClient | null>(null);

/** The signed-in client; views render only inside the provider, so a missing one is a bug. */
export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient outside ApiClientContext');
  return client;
}
