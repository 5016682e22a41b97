import {
  findCgroupHost,
  findEgressHelpers,
  hasLimits,
  probeNamespaceSandbox,
  resolveSandboxIdentity,
  sweepSandboxGroups,
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
  /** Why no limits (or fewer than asked), when some were asked for. */
  limitsReason?: string;
}

/** The decision: what to tell, and the spec every workspace's sandbox is started with. */
export interface IsolationDecision {
  inForce: IsolationInForce;
  spec?: ProbeSpec;
}

/** An empty sandbox group older than this is a leftover (a start enters its group within seconds). */
const LEFTOVER_GROUP_AGE_MS = 60_000;

const NO_HELPER = 'egress needs slirp4netns or pasta on the PATH (Debian: apt-get install slirp4netns passt); neither was found, so commands have no network';

/**
 * Decides, with real probes under `scratch`, what this machine gives commands: namespaces (or
 * none, or a refusal when `namespace` was required — thrown), the sandbox identity (explicit ids
 * that cannot be used are thrown as `TypeError`), the network (egress through the first helper
 * that works, else none — never host), and limits (a cgroup where one can be made, else none).
 * The common case costs one probe: everything at once; a failure is then narrowed down step
 * by step, so one missing piece never costs the others.
 */
export async function decideIsolation(request: IsolationRequest, scratch: string): Promise<IsolationDecision> {
  if (request.isolation === 'none') return { inForce: { mode: 'none', network: 'host', reason: 'isolation = "none" in the settings' } };
  const resolved = resolveSandboxIdentity(request.ids);
  const base: ProbeSpec = { network: request.network === 'egress' ? 'none' : request.network, ...(resolved.identity ? { identity: resolved.identity } : {}) };
  const helpers = request.network === 'egress' ? findEgressHelpers(process.env.PATH) : [];
  const cgroups = hasLimits(request.limits) ? await findCgroupHost() : undefined;
  // Groups of sandboxes that ended by themselves (their workspace deleted) are empty leftovers.
  if (cgroups?.places) await sweepSandboxGroups(cgroups.places, LEFTOVER_GROUP_AGE_MS);
  const limited = cgroups?.places ? { limits: request.limits, cgroups: cgroups.places } : undefined;

  const first = helpers[0];
  const full: ProbeSpec = { ...base, ...(first ? { network: 'egress', egress: first } : {}), ...limited };
  let spec: ProbeSpec | undefined = (await probeNamespaceSandbox(scratch, full)).available ? full : undefined;
  const reasons: { network?: string; limits?: string } = {};
  if (!spec) {
    const plain = await probeNamespaceSandbox(scratch, base);
    if (!plain.available) {
      if (request.isolation === 'namespace') throw new Error(`local provider: isolation "namespace" is not available on this machine: ${plain.reason}`);
      return { inForce: { mode: 'none', network: 'host', reason: plain.reason } };
    }
    spec = base;
    const failures: string[] = [];
    for (const helper of helpers) {
      const probe = await probeNamespaceSandbox(scratch, { ...base, network: 'egress', egress: helper });
      if (probe.available) {
        spec = { ...base, network: 'egress', egress: helper };
        break;
      }
      failures.push(`${helper.name}: ${probe.reason}`);
    }
    if (request.network === 'egress' && spec.network !== 'egress') reasons.network = `egress did not work (${failures.join('; ')}), so commands have no network`;
    if (limited) {
      const probe = await probeNamespaceSandbox(scratch, { ...spec, ...limited });
      if (probe.available) spec = { ...spec, ...limited };
      else reasons.limits = `limits could not be applied: ${probe.reason}`;
    }
  }
  if (request.network === 'egress' && helpers.length === 0) reasons.network = NO_HELPER;
  if (hasLimits(request.limits) && !cgroups?.places) reasons.limits = `no cgroup to apply limits in: ${cgroups?.reason ?? 'not looked for'}`;
  return {
    spec,
    inForce: {
      mode: 'namespace',
      network: spec.network,
      workspacePath: request.workspacePath,
      ...(spec.egress ? { egressHelper: spec.egress.name } : {}),
      ...(reasons.network ? { networkReason: reasons.network } : {}),
      ...(resolved.identity ? { identity: resolved.identity } : { identityReason: resolved.reason }),
      ...(spec.limits ? { limits: spec.limits, limitsVia: cgroups?.places ? (cgroups as { version: string }).version : undefined } : {}),
      ...(reasons.limits ? { limitsReason: reasons.limits } : {}),
    },
  };
}
