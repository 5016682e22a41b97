import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NamespaceSandbox } from './namespace-sandbox';

export type NamespaceProbe = { available: true } | { available: false; reason: string };

/**
 * As long as a sandbox start may take: on a busy machine the probe is slow, not negative, and a
 * probe that gave up early would make `auto` run commands without isolation.
 */
const PROBE_TIMEOUT_MS = 60_000;

/**
 * Whether sandboxes work on this machine, decided by building a real one under `scratchDir`
 * (created if missing) with `network` as the caller will use it, and checking from inside that
 * a bound directory is there while a host file beside it and the caller's /proc entry are not,
 * and that the system directories are read-only.
 */
export async function probeNamespaceSandbox(scratchDir: string, network: boolean): Promise<NamespaceProbe> {
  await mkdir(scratchDir, { recursive: true });
  const dir = await mkdtemp(join(scratchDir, 'probe-'));
  let sandbox: NamespaceSandbox | undefined;
  try {
    await mkdir(join(dir, 'root'));
    await mkdir(join(dir, 'bound'));
    await writeFile(join(dir, 'bound', 'inside.txt'), 'ok');
    await writeFile(join(dir, 'outside.txt'), 'secret');
    sandbox = await NamespaceSandbox.start({ rootMountPoint: join(dir, 'root'), binds: [{ source: join(dir, 'bound'), target: join(dir, 'bound') }], network });
    // `test ! -w`: the system is read-only (a `mount` too old to bind read-only in one step would leave it writable).
    const check = `test -f inside.txt && test ! -e ../outside.txt && test ! -e /proc/${process.pid}/environ && test ! -w /usr && test ! -w /etc/passwd`;
    const { file, args } = sandbox.launch(join(dir, 'bound'), ['/bin/sh', '-c', check]);
    const failure = await new Promise<string | undefined>((resolve) => {
      execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env: {} }, (error, _stdout, stderr) => {
        resolve(error ? `the probe command failed (${error.code ?? error.signal}): ${stderr.trim() || 'no output'}` : undefined);
      });
    });
    return failure === undefined ? { available: true } : { available: false, reason: failure };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  } finally {
    await sandbox?.kill(PROBE_TIMEOUT_MS);
    await rm(dir, { recursive: true, force: true });
  }
}
