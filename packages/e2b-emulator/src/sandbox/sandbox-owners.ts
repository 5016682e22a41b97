/**
 * Who owns a sandbox's files, as envd makes them owned. Two ways, decided once at start (see
 * `probeIsolation`):
 *
 * - **Two identities** (the emulator runs as root, with namespaces): `user` and `root` are two
 *   host identities (`hostUsers`), uid 1000 and 0 inside, as on E2B. Commands run as their user;
 *   the files API, which acts as root as envd does, gives what it writes to the user it writes
 *   for (`own`), and the directories it makes for it only the levels it made (`ensureDirectory`,
 *   envd's `EnsureDirs`). A new sandbox's `/home/user` is `user`'s, `/root` (0700) and `/tmp`
 *   (1777) root's.
 * - **One identity** (otherwise): the emulator's own uid, which is also what its commands run
 *   as. Everything the sandbox's files API or its commands create belongs to it, and what it
 *   stands for is E2B's default user, so it reads as `user` — as every file a template's default
 *   user makes reads on E2B. Nothing is chowned.
 *
 * Owner names (`nameOf`) are envd's: a user's host id reads as its name, host 0 as `root`, any
 * other id as its number.
 */
import { chmod, lchown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxIdentity } from '@runtimectl/namespace-sandbox';
import type { SandboxUser } from './sandbox-users.js';

/** The host identity of each sandbox user, when they are two. */
export type HostUsers = Record<SandboxUser, SandboxIdentity>;

/** The uid (and gid) of `user` inside a sandbox, as in E2B's templates. */
export const USER_ID_INSIDE = 1000;

/** The emulator's own uid and gid: the sandbox identity when there is one (undefined where Node has no ids). */
const OWN_IDS = { uid: process.getuid?.(), gid: process.getgid?.() };

export class SandboxOwners {
  constructor(readonly hostUsers?: HostUsers) {}

  /** The uid inside `user` runs commands as, when users are two identities (root: 0); undefined with one. */
  idInside(user: SandboxUser): number | undefined {
    if (!this.hostUsers) return undefined;
    return user === 'user' ? USER_ID_INSIDE : 0;
  }

  /** The name envd shows for host uid (`kind: 'uid'`) or gid `id`. */
  nameOf(id: number, kind: 'uid' | 'gid'): string {
    if (this.hostUsers) {
      if (id === this.hostUsers.user[kind]) return 'user';
      if (id === this.hostUsers.root[kind] || id === 0) return 'root';
      return String(id);
    }
    if (id === OWN_IDS[kind]) return 'user';
    if (id === 0) return 'root';
    return String(id);
  }

  /** Gives the entry at `hostPath` (not following a final symlink) to `user`; nothing with one identity. */
  async own(hostPath: string, user: SandboxUser): Promise<void> {
    const ids = this.hostUsers?.[user];
    if (ids) await lchown(hostPath, ids.uid, ids.gid);
  }

  /**
   * Makes the directory `hostPath` and any missing parents (0755), giving each level it made —
   * and only those — to `user`, as envd's EnsureDirs does. The levels above `within` (a
   * sandbox's directory) are the emulator's and never chowned.
   */
  async ensureDirectory(hostPath: string, user: SandboxUser, within: string): Promise<void> {
    const first = await mkdir(hostPath, { recursive: true, mode: 0o755 });
    if (first === undefined || !this.hostUsers) return;
    for (let level = hostPath; level.length >= first.length && level.startsWith(within + path.sep); level = path.dirname(level)) {
      await this.own(level, user);
    }
  }

  /** Gives a new sandbox's `/home/user` to `user` and its `/root` (0700) and `/tmp` (1777) to `root`. */
  async prepare(directory: string): Promise<void> {
    if (!this.hostUsers) return;
    await this.own(path.join(directory, 'home', 'user'), 'user');
    await this.own(path.join(directory, 'root'), 'root');
    await this.own(path.join(directory, 'tmp'), 'root');
    await chmod(path.join(directory, 'root'), 0o700);
    await chmod(path.join(directory, 'tmp'), 0o1777);
  }
}
