import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { grants, type ApiKeyVerifier, type AuthenticatedKey, type KeyVerdict } from './auth/api-keys';
import { decoratePeerRequests } from './fleet/peer-auth-hooks';
import { claimsToBePeer, type PeerRequestVerifier } from './fleet/peer-request-verifier';
import { HostAllowlist } from './auth/host-allowlist';
import { closeAfterAnswer } from './http-errors/answer-and-close';
import { errorReply } from './http-errors/error-reply';
import { REQUEST_ID_HEADER } from './request-id';
import './route-config';
import { decorateProviderTiming, serverTimingOf, startProviderTiming } from './provider-timing';
import type { ServerTelemetry } from './telemetry/server-telemetry';

/** The route pattern (never the raw URL, whose ids would explode label cardinality). */
export const routeLabelOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

function rejectHost(request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = errorReply(
    'host_not_allowed',
    'the Host header names neither a loopback address nor an allowed host (runtimed: http.allowed_hosts); without auth other names are refused against DNS rebinding',
  );
  closeAfterAnswer(request, reply);
  reply.code(status).send(body);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the request authenticated with (undefined without auth, and for fleet peers). */
    runtimectlKey?: AuthenticatedKey;
    /**
     * Whether that key still admits the caller (not revoked, not expired): a request that lasts
     * (an event stream) asks again as it goes. Undefined without auth.
     */
    stillAdmitted?: () => Promise<boolean>;
  }
}

function rejectForbidden(request: FastifyRequest, reply: FastifyReply, key: AuthenticatedKey, scope: string): void {
  const { status, body } = errorReply('forbidden', `the API key ${key.name} lacks the ${scope} scope this route needs`, { scope, key: key.name });
  closeAfterAnswer(request, reply);
  reply.code(status).send(body);
}

function rejectUnauthenticated(request: FastifyRequest, reply: FastifyReply, message = 'missing or invalid bearer token'): void {
  const { status, body } = errorReply('unauthorized', message);
  // A refused caller keeps no socket open (nor a body trickling into it).
  closeAfterAnswer(request, reply);
  reply.code(status).header('www-authenticate', 'Bearer realm="runtimectl"').send(body);
}

/**
 * A request claiming to come from another node of the fleet: let through, in place of the
 * caller's token (which forwarding never passes on) and of the Host check, only when it proves
 * it (see PeerRequestVerifier) and its route is one a peer may call — a runtime operation
 * (what forwarding sends) or the peer handshake. Anything else claiming it is refused 401.
 */
function admitPeer(request: FastifyRequest, reply: FastifyReply, peers: PeerRequestVerifier | undefined): boolean {
  const config = request.routeOptions.config.runtimectl;
  const verdict = peers ? peers.verify(request) : { ok: false as const, reason: 'this server is not a node of a fleet' };
  if (!verdict.ok || !(config?.timing || config?.peer)) {
    const reason = verdict.ok ? 'peers may call only runtime operations and the handshake' : verdict.reason;
    request.log.warn({ forwarded_by: request.headers['x-runtimectl-forwarded-by'], reason }, 'refused a request claiming to come from a fleet peer');
    rejectUnauthenticated(request, reply, `fleet peer request refused: ${reason}`);
    return false;
  }
  request.runtimectlPeer = verdict.peer;
  return true;
}

/**
 * Hooks every request in the plugin passes through, in order: request id header, fleet peer
 * authentication for requests claiming to come from another node (see admitPeer), else auth
 * (all routes but the public ones, unknown routes included): the bearer token or an API key,
 * whose scopes must include the one the route names (admin when it names none; 403 otherwise),
 * or, without auth, the Host check
 * (every route: see HostAllowlist), and the start of provider timing
 * for runtime operations (their handlers pass `providerTimingOf(request)` to the service),
 * `server-timing` on their responses, request metrics.
 */
export function installRequestHooks(
  app: FastifyInstance,
  options: {
    telemetry: ServerTelemetry;
    /** Auth on: checks every request's key (see ApiKeyVerifier). Off: the Host check instead. */
    verifier?: ApiKeyVerifier | undefined;
    allowedHosts?: readonly string[] | undefined;
    /** Fleet nodes only: checks requests other nodes send (forwarded operations, the handshake). */
    peers?: PeerRequestVerifier | undefined;
  },
): void {
  const { telemetry } = options;
  const { verifier } = options;
  const hosts = verifier ? undefined : new HostAllowlist(options.allowedHosts);
  decorateProviderTiming(app);
  decoratePeerRequests(app);
  // One hook for all three: the id header goes on before auth can answer 401.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (claimsToBePeer(request.headers)) {
      if (!admitPeer(request, reply, options.peers)) return;
      if (request.routeOptions.config.runtimectl?.timing) startProviderTiming(request);
      done();
      return;
    }
    if (hosts && !hosts.allows(request.headers.host)) {
      rejectHost(request, reply);
      return;
    }
    const config = request.routeOptions.config.runtimectl;
    const proceed = () => {
      if (config?.timing) startProviderTiming(request);
      done();
    };
    if (!verifier || config?.public) {
      proceed();
      return;
    }
    const admit = (verdict: KeyVerdict) => {
      if (!verdict.ok) {
        rejectUnauthenticated(request, reply, verdict.message);
        return;
      }
      request.runtimectlKey = verdict.key;
      const { authorization } = request.headers;
      request.stillAdmitted = async () => (await verifier.verify(authorization, Date.now())).ok;
      // An unknown route needs any key (then 404); a known one its scope, admin when it names none.
      const scope = request.routeOptions.url === undefined ? undefined : (config?.scope ?? 'admin');
      if (scope !== undefined && !grants(verdict.key, scope)) {
        rejectForbidden(request, reply, verdict.key, scope);
        return;
      }
      proceed();
    };
    const verdict = verifier.verify(request.headers.authorization, Date.now());
    // A stored key is looked up in the store (its failure is the error handler's: 503 store_unavailable).
    if (verdict instanceof Promise) verdict.then(admit, done);
    else admit(verdict);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const timing = serverTimingOf(request, reply.elapsedTime);
    if (timing !== undefined) reply.header('server-timing', timing);
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    telemetry.recordRequest(request.method, routeLabelOf(request), reply.statusCode, reply.elapsedTime);
    done();
  });
}
