import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_INDEX_FILE, consoleAssetsDirectory } from '@runtimectl/console';
import { CONSOLE_PREFIX, consoleRoutes } from '@runtimectl/server-http';
import type { FastifyPluginAsync } from 'fastify';

/** The web console as this daemon serves it: its routes, and what the start line says of it. */
export interface ConsoleSetup {
  routes: FastifyPluginAsync[];
  describe(url: string): string;
}

/**
 * `http.console` on (the default) serves @runtimectl/console's prebuilt files at /console/. A
 * package installed without its built files (a workspace never built) serves nothing and says so
 * on the start line rather than answering 404s nobody can explain.
 */
export function consoleSetup(enabled: boolean): ConsoleSetup {
  if (!enabled) return { routes: [], describe: () => 'console: off' };
  const assetsDirectory = consoleAssetsDirectory();
  if (!existsSync(join(assetsDirectory, CONSOLE_INDEX_FILE))) {
    return { routes: [], describe: () => 'console: unavailable (@runtimectl/console has no built files)' };
  }
  return { routes: [consoleRoutes({ assetsDirectory })], describe: (url) => `console: ${url}${CONSOLE_PREFIX}/` };
}
