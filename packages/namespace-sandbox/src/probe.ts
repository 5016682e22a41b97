import { execFile } from 'node:child_process';
import { chmod, chown, lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NamespaceSandbox } from './namespace-sandbox';
import type { SandboxSpec } from './sandbox-spec';

export type NamespaceProbe = { available: true } | { available: false; reason: string };

/** Everything of a sandbox's spec but where it is mounted and what is bound: the probe picks those. */
export type ProbeSpec = Omit<SandboxSpec, 'rootMountPoint' | 'binds'>;

/**
 * As long as a sandbox start may take: on a busy machine the probe is slow, not negative, and a
 * probe that gave up early would make `auto` run commands without isolation.
 */
const PROBE_TIMEOUT_MS = 60_000;

/**
 * Whether sandboxes as `spec` describes work on this machine, decided by building a real one
 * under `scratchDir` (created if missing) and checking from inside that a bound directory is
 * there while a host file beside it and the caller's /proc entry are not, that the system
 * directories are read-only, and — with an identity — that a file made inside belongs to that
 * identity on the host, as does one each of its users makes to that user's. The network helper, the id maps and the cgroup are exercised by the
 * start itself (it fails without them).
 */
export async function probeNamespaceSandbox(scratchDir: string, spec: ProbeSpec): Promise<NamespaceProbe> {
  await mkdir(scratchDir, { recursive: true });
  const dir = await mkdtemp(join(scratchDir, 'probe-'));
  let sandbox: NamespaceSandbox | undefined;
  try {
    await mkdir(join(dir, 'root'));
    const bound = join(dir, 'bound');
    await mkdir(bound);
    await writeFile(join(bound, 'inside.txt'), 'ok');
    await writeFile(join(dir, 'outside.txt'), 'secret');
    if (spec.identity) await chown(bound, spec.identity.uid, spec.identity.gid);
    if (spec.users?.length) await chmod(bound, 0o777);
    sandbox = await NamespaceSandbox.start({ ...spec, rootMountPoint: join(dir, 'root'), binds: [{ source: bound, target: bound }] });
    // `test ! -w`: the system is read-only (a `mount` too old to bind read-only in one step would leave it writable).
    const check = `test -f inside.txt && test ! -e ../outside.txt && test ! -e /proc/${process.pid}/environ && test ! -w /usr && test ! -w /etc/passwd && : > made`;
    const failure = await run(sandbox, bound, check);
    if (failure !== undefined) return { available: false, reason: failure };
    if (spec.identity) {
      const owner = (await lstat(join(bound, 'made'))).uid;
      if (owner !== spec.identity.uid) return { available: false, reason: `a file made inside belongs to uid ${owner} on the host, not ${spec.identity.uid}` };
    }
    for (const user of spec.users ?? []) {
      const made = `made-by-${user.id}`;
      const failed = await run(sandbox, bound, `: > ${made}`, user.id);
      if (failed !== undefined) return { available: false, reason: `as user ${user.id}: ${failed}` };
      const owner = (await lstat(join(bound, made))).uid;
      if (owner !== user.identity.uid) return { available: false, reason: `a file user ${user.id} made belongs to uid ${owner} on the host, not ${user.identity.uid}` };
    }
    return { available: true };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  } finally {
    await sandbox?.kill(PROBE_TIMEOUT_MS);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `script` in `sandbox` at `cwd` (as `user`, else root); why it failed, or undefined. */
function run(sandbox: NamespaceSandbox, cwd: string, script: string, user?: number): Promise<string | undefined> {
  const { file, args, env } = sandbox.launch(cwd, ['/bin/sh', '-c', script], {}, user);
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env }, (error, _stdout, stderr) => {
      resolve(error ? `the probe command failed (${error.code ?? error.signal}): ${stderr.trim() || 'no output'}` : undefined);
    });
  });
}
