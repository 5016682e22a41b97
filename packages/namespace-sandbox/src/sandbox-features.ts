import { findCgroupHost, sweepSandboxGroups } from './cgroup-host';
import { probeNamespaceSandbox, type ProbeSpec } from './probe';
import type { SandboxIdentity, SandboxUser } from './sandbox-identity';
import { hasLimits, type SandboxLimits } from './sandbox-limits';
import { findEgressHelpers, type SandboxNetwork } from './sandbox-network';

/** What a caller would like its sandboxes to have. */
export interface FeatureRequest {
  network: SandboxNetwork;
  identity?: SandboxIdentity;
  /** Users besides root (see `SandboxSpec.users`); as asked, like the identity. */
  users?: readonly SandboxUser[];
  limits?: SandboxLimits;
}

/** What this machine gives: the spec to start sandboxes with, and what is missing and why; or no sandboxes at all. */
export type FeatureDecision =
  | { available: false; reason: string }
  | {
      available: true;
      spec: ProbeSpec;
      /** Why not the network asked for (egress without a working helper is none). */
      networkReason?: string;
      /** Why no limits, when some were asked for. */
      limitsReason?: string;
      /** How the limits are applied (`cgroup v1`, `cgroup v2`…), when they are. */
      limitsVia?: string;
    };

/** An empty sandbox group older than this is a leftover (a start enters its group within seconds). */
const LEFTOVER_GROUP_AGE_MS = 60_000;

const NO_HELPER = 'egress needs slirp4netns or pasta on the PATH (Debian: apt-get install slirp4netns passt); neither was found, so commands have no network';

/**
 * Decides, with real sandboxes started under `scratch`, what sandboxes on this machine can have:
 * the network (egress through the first helper on the PATH that works, else none — never the
 * host's when it was not asked for), the identity and users (as asked: a start that cannot map them fails)
 * and the limits (a cgroup where one can be made, else none). The common case costs one probe,
 * everything at once; a failure is then narrowed down step by step, so one missing piece never
 * costs the others. Sweeps empty groups that sandboxes which ended by themselves left behind.
 */
export async function decideSandboxFeatures(request: FeatureRequest, scratch: string): Promise<FeatureDecision> {
  const base: ProbeSpec = {
    network: request.network === 'egress' ? 'none' : request.network,
    ...(request.identity ? { identity: request.identity } : {}),
    ...(request.users?.length ? { users: request.users } : {}),
  };
  const helpers = request.network === 'egress' ? findEgressHelpers() : [];
  const cgroups = hasLimits(request.limits) ? await findCgroupHost() : undefined;
  if (cgroups?.places) await sweepSandboxGroups(cgroups.places, LEFTOVER_GROUP_AGE_MS);
  const limited = cgroups?.places && request.limits ? { limits: request.limits, cgroups: cgroups.places } : undefined;

  const first = helpers[0];
  const full: ProbeSpec = { ...base, ...(first ? { network: 'egress', egress: first } : {}), ...limited };
  let spec: ProbeSpec = full;
  let networkReason: string | undefined;
  let limitsReason: string | undefined;
  if (!(await probeNamespaceSandbox(scratch, full)).available) {
    const plain = await probeNamespaceSandbox(scratch, base);
    if (!plain.available) return { available: false, reason: plain.reason };
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
    if (helpers.length > 0 && spec.network !== 'egress') networkReason = `egress did not work (${failures.join('; ')}), so commands have no network`;
    if (limited) {
      const probe = await probeNamespaceSandbox(scratch, { ...spec, ...limited });
      if (probe.available) spec = { ...spec, ...limited };
      else limitsReason = `limits could not be applied: ${probe.reason}`;
    }
  }
  if (request.network === 'egress' && helpers.length === 0) networkReason = NO_HELPER;
  if (hasLimits(request.limits) && !cgroups?.places) limitsReason = `no cgroup to apply limits in: ${cgroups?.reason ?? 'not looked for'}`;
  return {
    available: true,
    spec,
    ...(networkReason ? { networkReason } : {}),
    ...(limitsReason ? { limitsReason } : {}),
    ...(spec.limits && cgroups?.places ? { limitsVia: cgroups.version } : {}),
  };
}
