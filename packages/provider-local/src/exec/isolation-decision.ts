import {
  decideSandboxFeatures,
  resolveSandboxIdentity,
  type EgressHelper,
  type ProbeSpec,
  type SandboxIdentity,
  type SandboxIdentityRequest,
  type SandboxLimits,
  type SandboxNetwork,
} from '@runtimectl/namespace-sandbox';

/** `auto`: namespaces where this machine allows them, else none; `namespace`: required; `none`: host processes. */
export type LocalIsolation = 'auto' | 'namespace' | 'none';

/** What isolation the provider was asked for (its settings, defaults applied). */
export interface IsolationRequest {
  isolation: LocalIsolation;
  network: SandboxNetwork;
  ids: SandboxIdentityRequest;
  workspacePath: string;
  limits: SandboxLimits;
}

/** The isolation commands actually get, and why not what was asked where they do not. */
export interface IsolationInForce {
  mode: 'namespace' | 'none';
  /** The network commands have (`host` without namespaces: they are host processes). */
  network: SandboxNetwork;
  /** Why not namespaces, when mode is none. */
  reason?: string;
  /** Why not the network asked for (egress without a working helper runs as none). */
  networkReason?: string;
  /** The user-mode stack carrying egress. */
  egressHelper?: EgressHelper['name'];
  /**
   * With namespaces: the host user and group a sandbox's root is — the owner of every file in
   * its workspaces. Absent: the daemon's own ids, and `identityReason` says why.
   */
  identity?: SandboxIdentity;
  identityReason?: string;
  /** With namespaces: where commands see their workspace, the same for its whole life. */
  workspacePath?: string;
  /** With namespaces: the limits every workspace's sandbox runs under, and how (`cgroup v1`, `cgroup v2`). */
  limits?: SandboxLimits;
  limitsVia?: string;
  /** Why no limits, when some were asked for. */
  limitsReason?: string;
}

/** The decision: what to tell, and the spec every workspace's sandbox is started with. */
export interface IsolationDecision {
  inForce: IsolationInForce;
  spec?: ProbeSpec;
}

/**
 * Decides what this machine gives commands (see `decideSandboxFeatures`): namespaces, or none
 * (with `auto`), or a refusal when `namespace` was required — thrown; the sandbox identity
 * (explicit ids that cannot be used are thrown as `TypeError`); the network; the limits.
 */
export async function decideIsolation(request: IsolationRequest, scratch: string): Promise<IsolationDecision> {
  if (request.isolation === 'none') return { inForce: { mode: 'none', network: 'host', reason: 'isolation = "none" in the settings' } };
  const resolved = resolveSandboxIdentity(request.ids);
  const decided = await decideSandboxFeatures({ network: request.network, limits: request.limits, ...(resolved.identity ? { identity: resolved.identity } : {}) }, scratch);
  if (!decided.available) {
    if (request.isolation === 'namespace') throw new Error(`local provider: isolation "namespace" is not available on this machine: ${decided.reason}`);
    return { inForce: { mode: 'none', network: 'host', reason: decided.reason } };
  }
  const { spec } = decided;
  return {
    spec,
    inForce: {
      mode: 'namespace',
      network: spec.network,
      workspacePath: request.workspacePath,
      ...(spec.egress ? { egressHelper: spec.egress.name } : {}),
      ...(decided.networkReason ? { networkReason: decided.networkReason } : {}),
      ...(resolved.identity ? { identity: resolved.identity } : { identityReason: resolved.reason }),
      ...(spec.limits ? { limits: spec.limits } : {}),
      ...(decided.limitsVia ? { limitsVia: decided.limitsVia } : {}),
      ...(decided.limitsReason ? { limitsReason: decided.limitsReason } : {}),
    },
  };
}
