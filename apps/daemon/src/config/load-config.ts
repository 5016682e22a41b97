import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { runtimeScopeOf, type ApiKeyConfig } from '@runtimectl/server-http';
import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';
import { ConfigError } from './config-error';
import { CONFIG_KEYS, envNameOf, type ConfigKey } from './config-keys';
import { BEARER_TOKEN_CHARACTERS, BEARER_TOKEN_CHARACTERS_RULE, DaemonConfigSchema, type DaemonConfig } from './config-schema';
import { FIRST_PARTY_PROVIDERS } from '../providers/first-party-providers';
import { defaultStateDir } from './state-dir';
import { resolveFleetSecret } from './resolve-fleet-secret';
import type { WebhookSettings } from '@runtimectl/webhooks';
import { resolveWebhooks } from './resolve-webhooks';

export interface ConfigSources {
  /** --config, else $RUNTIMECTL_CONFIG, else none. */
  configPath?: string;
  env: NodeJS.ProcessEnv;
  /** Values from flags, by config path (`http.port` …): they win over everything. */
  flags: Record<string, unknown>;
}

/** The validated configuration with every default and derived path filled in. */
export interface ResolvedConfig extends DaemonConfig {
  stateDir: string;
  storePath: string;
  /** Where provider packages named by a relative path (and then by name) are looked for: the config file's directory, else the working directory. */
  configDir: string;
  /**
   * What overrides providers' settings once their packages are loaded and their schemas known
   * (src/providers/provider-settings.ts): RUNTIMECTL_PROVIDERS_<ID>_<KEY> variables, then flags
   * by config path. Holds the environment: never logged.
   */
  providerOverrides: { env: NodeJS.ProcessEnv; flags: Record<string, unknown> };
  /** store.kind = postgres: the URL from the variable store.url_env names. Holds a password: never logged. */
  databaseUrl: string | undefined;
  /** The bearer token to require, resolved from the file or its environment variable. Never logged. */
  bearerToken: string | undefined;
  /** `[[http.auth.keys]]` as the server takes them (hashes, never tokens). */
  apiKeys: ApiKeyConfig[];
  /** The fleet's shared secret from the variable fleet.secret_env names (required on PostgreSQL). Never logged. */
  fleetSecret: string | undefined;
  /** `[[webhooks]]` with their secrets resolved (from the file or secret_env). Secrets: never logged. */
  webhookSettings: WebhookSettings[];
  configPath: string | undefined;
}

type Tree = Record<string, unknown>;

/**
 * Settings whose variable, set but empty, is refused rather than ignored like the others: an
 * empty token most likely means a secret failed to arrive, and ignoring it would turn auth off.
 */
const AUTH_KEYS = new Set(['http.auth.bearer_token', 'http.auth.bearer_token_env']);

function setPath(tree: Tree, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = tree;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node = (next && typeof next === 'object' ? next : (node[key] = {})) as Tree;
  }
  node[keys.at(-1)!] = value;
}

function readConfigFile(path: string): Tree {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`config file ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (error as Error).message}`);
  }
  try {
    return parseToml(text) as Tree;
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid TOML: ${(error as Error).message}`);
  }
}

/** A RUNTIMECTL_* variable's value as a setting of `type`; `name` is the variable, for errors. */
export function fromEnv(key: Pick<ConfigKey, 'type'>, raw: string, name: string): unknown {
  switch (key.type) {
    case 'string':
      return raw;
    case 'integer': {
      if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name}: expected an integer, got "${raw}"`);
      return Number(raw);
    }
    case 'number': {
      if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(`${name}: expected a number, got "${raw}"`);
      return Number(raw);
    }
    case 'boolean': {
      const value = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(value)) return true;
      if (['0', 'false', 'no', 'off'].includes(value)) return false;
      throw new ConfigError(`${name}: expected true or false, got "${raw}"`);
    }
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        throw new ConfigError(`${name}: expected a JSON object, got "${raw}"`);
      }
  }
}

function describeIssues(error: z.ZodError, source: string): string {
  const lines = error.issues.map((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `  ${at ? `${at}.` : ''}${key}: unknown key`).join('\n');
    }
    return `  ${at || '(root)'}: ${issue.message}`;
  });
  return `invalid configuration (${source}):\n${lines.join('\n')}\nSee \`runtimed --help\` and docs/config.md.`;
}

/** Reads the file, applies RUNTIMECTL_* variables and flags, validates, and derives paths. */
export function loadConfig(sources: ConfigSources): ResolvedConfig {
  const configPath = sources.configPath ?? (sources.env.RUNTIMECTL_CONFIG || undefined);
  const tree: Tree = configPath ? readConfigFile(configPath) : {};
  for (const key of CONFIG_KEYS) {
    if (key.path.includes('<id>')) continue;
    const raw = sources.env[envNameOf(key.path)];
    if (raw === '' && AUTH_KEYS.has(key.path)) {
      throw new ConfigError(
        `${envNameOf(key.path)} is set but empty: the daemon would start with authentication off. ` +
          'Unset it to run without auth, or give it a value.',
      );
    }
    if (raw !== undefined && raw !== '') setPath(tree, key.path, fromEnv(key, raw, envNameOf(key.path)));
  }
  applyProviderSectionEnv(tree, sources.env);
  const providerFlags: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(sources.flags)) {
    if (value === undefined) continue;
    // A provider's settings are known once its package is loaded: they are applied then, last.
    if (isProviderSetting(path)) providerFlags[path] = value;
    else setPath(tree, path, value);
  }
  enableDefaultProvider(tree);
  const parsed = DaemonConfigSchema.safeParse(tree);
  if (!parsed.success) {
    throw new ConfigError(describeIssues(parsed.error, configPath ? `file ${configPath}, environment and flags` : 'environment and flags'));
  }
  const config = parsed.data;
  const stateDir = resolve(config.state_dir ?? defaultStateDir(sources.env));
  const bearerToken = resolveBearerToken(config, sources.env);
  return {
    ...config,
    stateDir,
    storePath: resolve(config.store.path ?? join(stateDir, 'runtimectl.db')),
    configDir: configPath ? dirname(resolve(configPath)) : process.cwd(),
    providerOverrides: { env: sources.env, flags: providerFlags },
    databaseUrl: resolveDatabaseUrl(config, sources.env),
    bearerToken,
    apiKeys: (config.http.auth?.keys ?? []).map((key) => {
      const runtimes = runtimeScopeOf(key.name, { ...key, openedRuntimes: key.opened_runtimes });
      return {
        name: key.name,
        tokenSha256: key.token_sha256,
        scopes: key.scopes,
        ...(key.expires_at_ms === undefined ? {} : { expiresAtMs: key.expires_at_ms }),
        ...(runtimes ? { runtimes } : {}),
      };
    }),
    fleetSecret: resolveFleetSecret(config, sources.env, bearerToken),
    webhookSettings: resolveWebhooks(config, sources.env),
    configPath,
  };
}

/** Naming a provider as the default enables it, unless the configuration disables it explicitly. */
function enableDefaultProvider(tree: Tree): void {
  const name = (tree.runtimes as Tree | undefined)?.default_provider;
  if (typeof name !== 'string') return;
  const providers = (tree.providers ??= {}) as Tree;
  const section = providers[name];
  if (section === undefined) {
    if (name in FIRST_PARTY_PROVIDERS) providers[name] = { enabled: true };
  }
  else if (section && typeof section === 'object' && (section as Tree).enabled === undefined) (section as Tree).enabled = true;
}

const PROVIDER_SECTION_VARIABLE = /^RUNTIMECTL_PROVIDERS_([A-Z0-9_]+)_(PACKAGE|ENABLED)$/;

/** RUNTIMECTL_PROVIDERS_<ID>_PACKAGE and _ENABLED, for any id: which providers run is known before any package loads. */
function applyProviderSectionEnv(tree: Tree, env: NodeJS.ProcessEnv): void {
  for (const [name, raw] of Object.entries(env)) {
    const match = PROVIDER_SECTION_VARIABLE.exec(name);
    if (!match || raw === undefined || raw === '') continue;
    const key = match[2]!.toLowerCase();
    setPath(tree, `providers.${match[1]!.toLowerCase()}.${key}`, fromEnv({ type: key === 'enabled' ? 'boolean' : 'string' }, raw, name));
  }
}

/** providers.<id>.<setting>, not the daemon's own package and enabled. */
function isProviderSetting(path: string): boolean {
  const keys = path.split('.');
  return keys[0] === 'providers' && keys.length >= 3 && keys[2] !== 'package' && keys[2] !== 'enabled';
}

/** The PostgreSQL URL of a postgres store. Errors name the key and the variable, never the URL (it holds a password). */
function resolveDatabaseUrl(config: DaemonConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (config.store.kind !== 'postgres') return undefined;
  const name = config.store.url_env;
  const url = env[name]?.trim();
  if (!url) throw new ConfigError(`store.url_env: environment variable ${name} is not set or empty (it holds the PostgreSQL URL)`);
  if (!/^postgres(?:ql)?:\/\//.test(url)) throw new ConfigError(`store.url_env: ${name} must be a postgres:// or postgresql:// URL`);
  return url;
}

function resolveBearerToken(config: DaemonConfig, env: NodeJS.ProcessEnv): string | undefined {
  const auth = config.http.auth;
  if (!auth) return undefined;
  if (auth.bearer_token) return auth.bearer_token;
  if (!auth.bearer_token_env) return undefined;
  const token = env[auth.bearer_token_env]?.trim();
  if (!token) throw new ConfigError(`http.auth.bearer_token_env: environment variable ${auth.bearer_token_env} is not set or empty`);
  if (token.length < 16) throw new ConfigError(`http.auth.bearer_token_env: the token in ${auth.bearer_token_env} must be at least 16 characters`);
  if (!BEARER_TOKEN_CHARACTERS.test(token)) {
    throw new ConfigError(`http.auth.bearer_token_env: the token in ${auth.bearer_token_env} must be ${BEARER_TOKEN_CHARACTERS_RULE}`);
  }
  return token;
}
