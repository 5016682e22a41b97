import { InvalidRequestError } from '@runtimectl/provider';

/** A PATH that finds the usual tools without reading the daemon's own PATH. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checked(env: Record<string, string>, origin: string): Record<string, string> {
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) throw new InvalidRequestError(`${origin} env name ${JSON.stringify(name)} is not a valid variable name`, { name });
    if (typeof value !== 'string' || value.includes('\u0000')) {
      throw new InvalidRequestError(`${origin} env value of ${name} must be a string without NUL bytes`, { name });
    }
  }
  return env;
}

/**
 * The complete environment of a command: a minimal base (PATH, HOME = the workspace where the
 * command sees it, LANG), then
 * the provider's configured `env`, then the request's `env` — later wins. Nothing comes from the
 * daemon's own environment, so its tokens and keys never reach a command unless configured.
 */
export function commandEnvironment(
  workspaceRoot: string,
  configured: Record<string, string>,
  requested: Record<string, string> | undefined,
): Record<string, string> {
  return {
    PATH: DEFAULT_PATH,
    HOME: workspaceRoot,
    LANG: 'C.UTF-8',
    ...configured,
    ...(requested ? checked(requested, 'request') : {}),
  };
}

export function checkConfiguredEnvironment(env: Record<string, string>): Record<string, string> {
  return { ...checked(env, 'configured') };
}
