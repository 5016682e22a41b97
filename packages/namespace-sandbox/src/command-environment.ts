/**
 * How a command's environment crosses the host side of a launch. The launcher — a host shell
 * writing the cgroup files, then `nsenter` — runs on the host, before any namespace: had it the
 * command's environment, a caller's `PATH` would choose the `nsenter` the host runs, and its
 * `LD_PRELOAD` the libraries the host loads (a runtime's own files, as the daemon's user). So the
 * launcher runs with a fixed environment and carries the command's in one inert variable, which
 * only the sandbox side reads back (ENTER_SCRIPT, inside the sandbox's namespaces and root).
 */

/** The host side's PATH: the system's directories, never one a caller named. */
export const LAUNCHER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The one variable the launcher carries the command's environment in (as shell `export` lines). */
export const SANDBOX_ENVIRONMENT_VARIABLE = 'RUNTIMECTL_SANDBOX_ENVIRONMENT';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `value` as one single-quoted shell word: nothing in it is expanded. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The launcher's environment for a command that must run with `environment` inside the sandbox:
 * the fixed PATH, and `environment` as shell code the sandbox side evaluates (it unsets the carrier
 * first, so the command sees exactly `environment`, plus PATH when it names none). Names must be
 * variable names and values free of NUL (TypeError otherwise: callers validate first).
 */
export function launcherEnvironment(environment: Readonly<Record<string, string>>): Record<string, string> {
  const lines = [`unset ${SANDBOX_ENVIRONMENT_VARIABLE}`];
  for (const [name, value] of Object.entries(environment)) {
    if (!VARIABLE_NAME.test(name)) throw new TypeError(`${JSON.stringify(name)} is not a variable name`);
    if (value.includes('\u0000')) throw new TypeError(`the value of ${name} holds a NUL byte`);
    lines.push(`export ${name}=${shellQuoted(value)}`);
  }
  return { PATH: LAUNCHER_PATH, [SANDBOX_ENVIRONMENT_VARIABLE]: lines.join('\n') };
}
