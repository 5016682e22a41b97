/**
 * The users of an E2B sandbox as envd knows them: `user` (the template's default, home
 * `/home/user`) and `root` (home `/root`). The SDK names no user unless asked (envd ≥ 0.4.0
 * then uses `user`); `root` comes as `?username=root` on `/files` and as
 * `Authorization: Basic base64("root:")` on RPCs. Any other name is refused as envd refuses it.
 */
import type { IncomingMessage } from 'node:http';

export type SandboxUser = 'user' | 'root';

export const DEFAULT_SANDBOX_USER: SandboxUser = 'user';

/** A command's PATH: an E2B template's (also what its sudo resets to), never the emulator's own. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const HOMES: Record<SandboxUser, string> = { user: '/home/user', root: '/root' };

/** A user name envd does not know (envd answers 401 "error looking up user"). */
export class UnknownSandboxUserError extends Error {
  constructor(readonly username: string) {
    super(`error looking up user '${username}'`);
    this.name = 'UnknownSandboxUserError';
  }
}

/** The home directory relative and `~` paths of `user` resolve against. */
export function homeOf(user: SandboxUser): string {
  return HOMES[user];
}

/** The named user, the default when none is named; throws UnknownSandboxUserError. */
export function sandboxUserNamed(username: string | null | undefined): SandboxUser {
  if (!username) return DEFAULT_SANDBOX_USER;
  if (username === 'user' || username === 'root') return username;
  throw new UnknownSandboxUserError(username);
}

/** The user of an envd RPC: HTTP Basic credentials `<user>:` as the SDK sends them, else the default. */
export function sandboxUserOfRequest(req: IncomingMessage): SandboxUser {
  const authorization = req.headers.authorization;
  const match = authorization ? /^Basic\s+(\S+)$/i.exec(authorization) : null;
  if (!match) return DEFAULT_SANDBOX_USER;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  return sandboxUserNamed(decoded.split(':', 1)[0]);
}
