import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFigures } from '../support/figures';
import { Api } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { openRuntime, writeText } from '../support/runtime-steps';

// Issue 18 item 3: an agent's commands must not read the daemon's secrets. A real runtimed
// (local provider, default isolation) runs with a bearer token and E2B_API_KEY in its
// environment and its SQLite database in its state directory; a runtime's commands then try
// every way in: /proc/$PPID/environ, every /proc/*/environ, the daemon's pid, its open
// descriptors, the state directory, the database file, another runtime's workspace. Each
// attempt is bounded (5 s); the count of secrets that showed up in any output must be 0.
const TOKEN = `reliability-token-${randomBytes(16).toString('hex')}`;
const E2B_KEY = `e2b_${randomBytes(20).toString('hex')}`;
const OTHER_SECRET = `other-runtime-${randomBytes(12).toString('hex')}`;
/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3';

let daemon: RuntimedProcess;
let api: Api;
let banner = '';
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  daemon = await startRuntimed({
    args: ['--provider', 'local'],
    env: { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'RELIABILITY_TOKEN', RELIABILITY_TOKEN: TOKEN, E2B_API_KEY: E2B_KEY },
    secrets: [TOKEN, E2B_KEY],
  });
  banner = daemon.banner;
  api = new Api(daemon.url, TOKEN);
});

afterAll(async () => {
  writeFigures('command-secrets', figures);
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

describe('secrets readable from a command', () => {
  it('is 0: not the token, the E2B key, the database or another runtime’s files', async () => {
    const other = await openRuntime(api);
    await writeText(api, other, 'secret.txt', OTHER_SECRET);
    const snooper = await openRuntime(api);
    const stateDir = daemon.stateDir;
    const attempts = [
      'cat /proc/$PPID/environ',
      'for f in /proc/[0-9]*/environ; do cat "$f"; done',
      `cat /proc/${daemon.pid}/environ`,
      `ls -l /proc/$PPID/fd /proc/${daemon.pid}/fd`,
      `cat /proc/${daemon.pid}/cmdline; ls -la /proc/${daemon.pid}/root/`,
      `cat ${join(stateDir, 'runtimectl.db')}`,
      `ls -laR ${stateDir}`,
      `cat ${join(stateDir, 'workspaces')}/*/secret.txt`,
      'find / -xdev -name "runtimectl.db*" -o -name secret.txt 2>/dev/null | head -n 20 | while read -r f; do cat "$f"; done',
    ];
    const secrets = [TOKEN, E2B_KEY, OTHER_SECRET, SQLITE_HEADER];
    let readable = 0;
    const readableBy: string[] = [];
    for (const command of attempts) {
      const result = await api.ok<{ stdout_base64: string; stderr_base64: string }>('/api/v1/runtimes/exec', {
        runtime_id: snooper,
        command: `${command} 2>&1`,
        timeout_ms: 5_000,
      });
      const output = Buffer.from(result.stdout_base64, 'base64').toString('latin1') + Buffer.from(result.stderr_base64, 'base64').toString('latin1');
      for (const secret of secrets) {
        if (output.includes(secret)) {
          readable += 1;
          readableBy.push(command.slice(0, 40));
        }
      }
    }
    Object.assign(figures, { attempts: attempts.length, secretsLookedFor: secrets.length, readable, isolation: /local isolation: ([^·]*)/.exec(banner)?.[1]?.trim() });
    expect(readableBy).toEqual([]);
    expect(readable).toBe(0);
    expect(daemon.logs.foundCount()).toBe(0);
  });
});
