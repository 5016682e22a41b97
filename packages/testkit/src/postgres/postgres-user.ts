import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const USER = 'postgres';
/** Each of `id` and `useradd` is one short command: bounded so a stuck one cannot hold a start. */
const COMMAND_TIMEOUT_MS = 15_000;

export interface UserIds {
  uid: number;
  gid: number;
}

async function idsOf(user: string): Promise<UserIds | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      run('id', ['-u', user], { timeout: COMMAND_TIMEOUT_MS }),
      run('id', ['-g', user], { timeout: COMMAND_TIMEOUT_MS }),
    ]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * The user a test PostgreSQL runs as when this process is root (PostgreSQL refuses to run as
 * root): `postgres`, created as a system user if missing. Several test processes may race to
 * create it: one `useradd` wins and the others find the user it made.
 */
export async function postgresUserIds(): Promise<UserIds> {
  const existing = await idsOf(USER);
  if (existing) return existing;
  let failure: unknown;
  try {
    await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], { timeout: COMMAND_TIMEOUT_MS });
  } catch (error) {
    failure = error;
  }
  const created = await idsOf(USER);
  if (created) return created;
  throw new Error(`could not create the ${USER} user: ${(failure as Error | undefined)?.message ?? 'useradd reported success but id finds no user'}`);
}
