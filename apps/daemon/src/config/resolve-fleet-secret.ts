import { ConfigError } from './config-error';
import type { DaemonConfig } from './config-schema';

/** Fewer characters than this are refused: `openssl rand -hex 32` gives 64. */
export const MIN_FLEET_SECRET_LENGTH = 32;

/**
 * The fleet's shared secret, from the variable `fleet.secret_env` names (never a file: files get
 * copied). Nodes sign what they send each other with it and believe only what it signs, so a
 * process that took a stopped node's port learns nothing and cannot answer for it.
 *
 * Required on PostgreSQL, the one store several nodes share: a node cannot know whether it is
 * alone, and one without the secret could neither forward to nor be forwarded from the others.
 * Why a configured secret rather than keys the nodes keep in that database: whoever can read
 * the database (a backup, a read-only role) would then hold every node's key, and whoever can
 * write it could enrol an impostor; the secret keeps who-is-a-node out of the data.
 *
 * Errors name the key and the variable, never the value.
 */
export function resolveFleetSecret(config: Pick<DaemonConfig, 'fleet' | 'store'>, env: NodeJS.ProcessEnv, bearerToken: string | undefined): string | undefined {
  const name = config.fleet.secret_env;
  const secret = env[name]?.trim();
  if (!secret) {
    if (config.store.kind !== 'postgres') return undefined;
    throw new ConfigError(
      `fleet.secret_env: environment variable ${name} is not set or empty; a node on PostgreSQL needs the fleet's shared secret ` +
        `(the same on every node, ${MIN_FLEET_SECRET_LENGTH}+ characters, e.g. openssl rand -hex 32)`,
    );
  }
  if (secret.length < MIN_FLEET_SECRET_LENGTH) throw new ConfigError(`fleet.secret_env: the secret in ${name} must be at least ${MIN_FLEET_SECRET_LENGTH} characters`);
  if (secret === bearerToken) throw new ConfigError(`fleet.secret_env: the secret in ${name} must differ from the bearer token (every caller holds that)`);
  return secret;
}
