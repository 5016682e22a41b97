import { isLoopbackHost } from '@runtimectl/server-http';
import { ConfigError } from '../config/config-error';

/**
 * Without auth, anyone who can reach the port can run commands in every runtime: refuse a
 * non-loopback address unless the operator said so explicitly.
 */
export function assertSafeBind(host: string, authConfigured: boolean, allowInsecureBind: boolean): void {
  if (authConfigured || allowInsecureBind || isLoopbackHost(host)) return;
  throw new ConfigError(
    `refusing to listen on ${host} without authentication: anyone who can reach it could run commands in every runtime. ` +
      'Configure [http.auth] bearer_token_env (or RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV), listen on 127.0.0.1, ' +
      'or pass --allow-insecure-bind if the network is trusted.',
  );
}
