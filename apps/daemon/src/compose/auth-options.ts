import type { AuthOptions } from '@runtimectl/server-http';
import type { ResolvedConfig } from '../config/load-config';

/** The server's auth: the bearer token and the API keys; undefined (auth off) with neither. */
export function authOptionsOf(config: Pick<ResolvedConfig, 'bearerToken' | 'apiKeys'>): AuthOptions | undefined {
  if (config.bearerToken === undefined && config.apiKeys.length === 0) return undefined;
  return { ...(config.bearerToken === undefined ? {} : { bearerToken: config.bearerToken }), ...(config.apiKeys.length ? { keys: config.apiKeys } : {}) };
}

/** `bearer`, `bearer + 2 API keys`, `1 API key` or `off`, for the start line. */
export function describeAuth(config: Pick<ResolvedConfig, 'bearerToken' | 'apiKeys'>): string {
  const keys = config.apiKeys.length === 0 ? undefined : `${config.apiKeys.length} API key${config.apiKeys.length === 1 ? '' : 's'}`;
  return [config.bearerToken === undefined ? undefined : 'bearer', keys].filter(Boolean).join(' + ') || 'off';
}
