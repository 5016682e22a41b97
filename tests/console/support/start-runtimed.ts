import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuntimectlClient } from '@runtimectl/client';
import { removeTree, startServerProcess } from '@runtimectl/testkit/server-process';

const RUNTIMED = fileURLToPath(new URL('../../../apps/daemon/dist/main.js', import.meta.url));

/** The admin bearer token of every daemon this suite starts (`[http.auth] bearer_token_env`). */
export const ADMIN_TOKEN = 'console-suite-admin-token-7f3a9c51e2';

export interface Runtimed {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Where the daemon serves the console. */
  consoleUrl: string;
  /** Its node id (from the banner), as the console's Node filter and fleet table show it. */
  nodeId: string;
  /** A client with the admin token: seeds data and checks what the console did. */
  client: RuntimectlClient;
  stop(): Promise<void>;
}

/**
 * The built `runtimed` on a free loopback port with a fresh state directory: the fs provider (the
 * default; local is on too), auth on with ADMIN_TOKEN, the console on (its default), commands
 * without network (nothing here needs it).
 */
export async function startRuntimed(): Promise<Runtimed> {
  const stateDir = mkdtempSync(join(tmpdir(), 'console-runtimed-'));
  try {
    const server = await startServerProcess({
      server: 'runtimed',
      command: process.execPath,
      args: [RUNTIMED, '--host', '127.0.0.1', '--port', '0', '--state-dir', stateDir, '--local-network', 'none'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        RUNTIMECTL_LOG_LEVEL: 'warn',
        RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'RUNTIMECTL_TOKEN',
        RUNTIMECTL_TOKEN: ADMIN_TOKEN,
      },
      readyLine: / listening on /,
      deadlineMs: 30_000,
    });
    const url = /listening on (http:\/\/\S+)/.exec(server.readyLine)![1]!;
    const nodeId = /· node: (\S+)/.exec(server.readyLine)?.[1] ?? '';
    return {
      url,
      consoleUrl: `${url}/console/`,
      nodeId,
      client: new RuntimectlClient({ baseUrl: url, token: ADMIN_TOKEN, timeoutMs: 30_000 }),
      stop: async () => {
        await server.stop();
        removeTree(stateDir);
      },
    };
  } catch (error) {
    removeTree(stateDir);
    throw error;
  }
}
