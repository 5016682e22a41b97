import { accessSync, constants } from 'node:fs';

const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];

/** util-linux `prlimit`, when this machine has it (looked up once). */
let prlimit: string | null | undefined;
function prlimitPath(): string | null {
  if (prlimit === undefined) {
    prlimit =
      PRLIMIT_PATHS.find((path) => {
        try {
          accessSync(path, constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }) ?? null;
  }
  return prlimit;
}

/**
 * The argv prefix that starts a command with RLIMIT_FSIZE at `maxFileBytes`: a write past that
 * offset fails with EFBIG and sends SIGXFSZ, which ends `yes > fill.bin` there. `prlimit`
 * execs the command in place (the pid, and so the process group, stay the command's own). Empty
 * where prlimit is missing: the quota watchdog alone then bounds the workspace.
 */
export function fileSizeLimitPrefix(maxFileBytes: number): string[] {
  const path = prlimitPath();
  return path ? [path, `--fsize=${maxFileBytes}`, '--'] : [];
}
