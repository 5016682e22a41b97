import { createHash, randomBytes } from 'node:crypto';

/**
 * E2B snapshot names. A named snapshot becomes a template alias in the team's namespace, so
 * names must be unique: a caller's checkpoint name is not (two runtimes may both call theirs
 * "before-refactor", and snapshotting under a taken alias silently replaces it). The name is
 * therefore made from the ownership labels core passes:
 *
 *   rtctl-<12 hex of sha256(installation)>-<installation, readable>-<ref id>
 *
 * The hash keeps installations apart whatever characters their ids hold; the readable part lets
 * a person recognise the snapshot in E2B's dashboard. Only lowercase letters, digits and `-`
 * (E2B aliases allow those everywhere), at most 128 characters.
 */
/** Every runtimectl snapshot name starts with this (whatever its installation). */
export const SNAPSHOT_NAME_PREFIX = 'rtctl-';
const NAME_PREFIX = SNAPSHOT_NAME_PREFIX;
const READABLE_MAX = 24;
const REF_MAX = 64;

function readable(value: string, max: number): string {
  const cleaned = value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned.slice(0, max).replace(/-+$/g, '') || 'x';
}

/** The name prefix shared by every snapshot of `installationId` (what reconciliation lists). */
export function snapshotNamePrefix(installationId: string): string {
  const digest = createHash('sha256').update(installationId).digest('hex').slice(0, 12);
  return `${NAME_PREFIX}${digest}-${readable(installationId, READABLE_MAX)}-`;
}

/**
 * The snapshot name for a checkpoint with these labels, or undefined when they carry no
 * installation (a direct caller outside core): such a snapshot is left unnamed, as E2B's default.
 */
export function snapshotNameFor(labels: Record<string, string>): string | undefined {
  const installation = labels.runtimectl_installation;
  if (!installation) return undefined;
  const ref = labels.runtimectl_ref_id ?? `snap-${randomBytes(8).toString('hex')}`;
  return `${snapshotNamePrefix(installation)}${readable(ref, REF_MAX)}`;
}

/**
 * The bare alias of a listed snapshot name or id: E2B reports `<team>/<name>:<tag>` (or
 * `<name>:<tag>`); the team and tag are dropped.
 */
export function bareSnapshotName(qualified: string): string {
  const withoutTeam = qualified.slice(qualified.lastIndexOf('/') + 1);
  const colon = withoutTeam.lastIndexOf(':');
  return colon === -1 ? withoutTeam : withoutTeam.slice(0, colon);
}
