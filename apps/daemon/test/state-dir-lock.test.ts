import { afterEach, describe, expect, it } from 'vitest';
import { runtimedRefusal, startRuntimed, type RuntimedProcess } from './runtimed-process';

const running: RuntimedProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((daemon) => daemon.stop('SIGKILL')));
});

async function start(args: string[], stateDir?: string): Promise<RuntimedProcess> {
  const daemon = await startRuntimed(args, {}, stateDir);
  running.push(daemon);
  return daemon;
}

// No isolation probe: these starts are about the state directory, and the probe is most of a start.
const QUICK = ['--local-isolation', 'none', '--log-level', 'warn'];

describe('one daemon per state directory', () => {
  it('a second runtimed on a state directory in use exits non-zero with one line naming the first one pid, whatever its store', async () => {
    const first = await start(QUICK);
    for (const store of [[], ['--store', 'memory'], ['--store', 'postgres']]) {
      // An unreachable database: were the store opened before the state directory is checked, this would say so instead.
      const refused = await runtimedRefusal([...QUICK, '--port', '0', ...store], { RUNTIMECTL_DATABASE_URL: 'postgres://runtimectl@127.0.0.1:1/none', RUNTIMECTL_FLEET_SECRET: 'f'.repeat(64) }, first.stateDir);
      expect(refused.code, `store ${store.join(' ') || 'sqlite'}: ${refused.stderr}`).not.toBe(0);
      expect(refused.code).not.toBeNull();
      expect(refused.stderr.trim().split('\n')).toEqual([
        `runtimed: could not start: the state directory ${first.stateDir} is in use by another runtimed (pid ${first.pid}); stop it, or give this daemon its own --state-dir`,
      ]);
      expect(refused.stdout).toBe('');
    }
    // The refused starts changed nothing: the first daemon still serves.
    expect((await fetch(`${first.url}/api/v1/health`)).status).toBe(200);
    expect(first.alive()).toBe(true);
  });

  it('after the holder is SIGKILLed a new daemon starts on the same state directory at once', async () => {
    const first = await start(QUICK);
    await first.stop('SIGKILL');
    const second = await start(QUICK, first.stateDir);
    expect((await fetch(`${second.url}/api/v1/health`)).status).toBe(200);
    const refused = await runtimedRefusal([...QUICK, '--port', '0'], {}, first.stateDir);
    expect(refused.stderr).toContain(`(pid ${second.pid})`);
  });
});
