import { readFileSync } from 'node:fs';

/**
 * The host user and group a sandbox's root is. A command that is root inside acts on the host as
 * `uid`/`gid`: the files it creates belong to them, a setuid program it leaves behind runs as
 * them. Only one id of each is mapped, so a command can chown only to its own ids (any other id is
 * `EINVAL` inside).
 */
export interface SandboxIdentity {
  uid: number;
  gid: number;
}

/**
 * The id auto picks when the caller is root: far above every range distributions hand out to
 * users, subordinate ranges (100000+) and SSSD's default id mapping (up to 2000200000), below
 * 2^31 so no tool reading ids as signed 32-bit numbers sees a negative one.
 */
export const DEFAULT_SANDBOX_ID = 2_147_000_000;

/**
 * A user of the sandbox besides its root: `id` is its uid and gid inside, `identity` the host
 * user and group it is there (see `resolveSandboxUsers`).
 */
export interface SandboxUser {
  id: number;
  identity: SandboxIdentity;
}

/** `auto`: an unprivileged identity when the caller is root, else the caller's own; `caller`: the caller's own ids; or explicit ids. */
export type SandboxIdentityRequest = 'auto' | 'caller' | SandboxIdentity;

/** What `resolveSandboxIdentity` decided: an identity to map to, or the caller's own ids, with why. */
export type ResolvedSandboxIdentity = { identity: SandboxIdentity } | { identity: undefined; reason: string };

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0 && (value as number) < 4_294_967_295;

/**
 * Decides the host identity of sandboxes. Mapping a sandbox's root to any other id than the
 * caller's own needs root (`CAP_SETUID`/`CAP_SETGID` to write the id maps), so a caller that is
 * not root always gets its own ids (a sandbox's root is then the caller's user, as with
 * rootless containers without subordinate ids). Explicit ids must not be 0 and, like auto's
 * default, must belong to no user, group or subordinate range in /etc/passwd, /etc/group,
 * /etc/subuid or /etc/subgid: an id that owns something else would hand it to every command.
 * Throws `TypeError` for explicit ids that are invalid or taken, or when the caller is not root.
 */
export function resolveSandboxIdentity(request: SandboxIdentityRequest, etc = '/etc'): ResolvedSandboxIdentity {
  const root = process.getuid?.() === 0;
  if (request === 'caller') return { identity: undefined, reason: 'the sandbox identity is the caller\'s own ("caller" in the settings)' };
  if (request === 'auto') {
    if (!root) return { identity: undefined, reason: `not running as root: a sandbox's root is this process's own user (uid ${process.getuid?.() ?? '?'})` };
    const taken = takenBy({ uid: DEFAULT_SANDBOX_ID, gid: DEFAULT_SANDBOX_ID }, etc);
    if (taken) return { identity: undefined, reason: `the default sandbox id ${DEFAULT_SANDBOX_ID} ${taken}: set explicit ids` };
    return { identity: { uid: DEFAULT_SANDBOX_ID, gid: DEFAULT_SANDBOX_ID } };
  }
  if (!isId(request.uid) || !isId(request.gid)) throw new TypeError('sandbox ids must be whole numbers between 1 and 4294967294');
  if (!root) throw new TypeError(`mapping a sandbox's root to uid ${request.uid} needs root; this process runs as uid ${process.getuid?.() ?? '?'}`);
  const taken = takenBy(request, etc);
  if (taken) throw new TypeError(`sandbox id ${taken}`);
  return { identity: { uid: request.uid, gid: request.gid } };
}

/**
 * The host identities of users `ids` (their uids and gids inside) of sandboxes whose root is
 * `root`: id n inside is host id root + n, as a subordinate range maps its ids, so every id a
 * sandbox has lies in one block above its root's. Each must belong to nothing on the host (see
 * `resolveSandboxIdentity`), nor be 0 or repeated inside. Throws `TypeError` otherwise.
 */
export function resolveSandboxUsers(root: SandboxIdentity, ids: readonly number[], etc = '/etc'): SandboxUser[] {
  return ids.map((id, index) => {
    if (!isId(id) || id > MAX_USER_ID) throw new TypeError(`a sandbox user's id inside must be a whole number between 1 and ${MAX_USER_ID}`);
    if (ids.indexOf(id) !== index) throw new TypeError(`sandbox user id ${id} is named twice`);
    const identity = { uid: root.uid + id, gid: root.gid + id };
    if (!isId(identity.uid) || !isId(identity.gid)) throw new TypeError(`sandbox user ${id} would be host id ${identity.uid}, beyond the last one`);
    const taken = takenBy(identity, etc);
    if (taken) throw new TypeError(`sandbox user ${id}: id ${taken}`);
    return { id, identity };
  });
}

/** The highest uid a sandbox user may have inside (65534 is `nobody`, what unmapped ids read as). */
const MAX_USER_ID = 65_533;

/** What already owns `identity`'s ids, in words, or undefined when nothing listed does. */
function takenBy(identity: SandboxIdentity, etc: string): string | undefined {
  const user = namedBy(`${etc}/passwd`, 2, identity.uid);
  if (user) return `${identity.uid} is user ${user}'s`;
  const group = namedBy(`${etc}/group`, 2, identity.gid);
  if (group) return `${identity.gid} is group ${group}'s`;
  const subordinateUser = rangeHolder(`${etc}/subuid`, identity.uid);
  if (subordinateUser) return `${identity.uid} lies in ${subordinateUser}'s subordinate user ids`;
  const subordinateGroup = rangeHolder(`${etc}/subgid`, identity.gid);
  if (subordinateGroup) return `${identity.gid} lies in ${subordinateGroup}'s subordinate group ids`;
  return undefined;
}

function lines(path: string): string[][] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(':'));
  } catch {
    return [];
  }
}

function namedBy(path: string, field: number, id: number): string | undefined {
  return lines(path).find((fields) => Number(fields[field]) === id)?.[0];
}

function rangeHolder(path: string, id: number): string | undefined {
  return lines(path).find(([, start, count]) => Number(start) <= id && id < Number(start) + Number(count))?.[0];
}
