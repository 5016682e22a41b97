import type { ApiKeyScope } from '@runtimectl/core';

/** Per-route flags the plugin's hooks read (`config.runtimectl` on a route). */
export interface RuntimectlRouteConfig {
  /** What an API key needs to call the route (see API_KEY_SCOPES); a route that names none needs `admin`. */
  scope?: ApiKeyScope;
  /** Answered without authentication (only `GET /api/v1/health`). */
  public?: boolean;
  /** A runtime operation: its response carries `server-timing: provider;dur=…, total;dur=…`. */
  timing?: boolean;
  /** Changes state: honours `Idempotency-Key` (the response is kept and replayed to retries). */
  idempotent?: boolean;
  /** Called by other nodes of the fleet, signed (the peer handshake); runtime operations (`timing`) accept peers too. */
  peer?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    runtimectl?: RuntimectlRouteConfig;
  }
}
